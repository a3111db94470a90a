// @ts-check
const { PHASE_DEVELOPMENT_SERVER } = require("next/constants");
const { SECURITY_HEADERS } = require("./lib/http/edge.mjs");

/**
 * OpenTelemetry (lib/observability/tracing-sdk.ts, loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set): one copy,
 * from node_modules, shared with Next.js's own spans, which require @opentelemetry/api from there.
 */
const TRACING_PACKAGES = [
  "@opentelemetry/api",
  "@opentelemetry/context-async-hooks",
  "@opentelemetry/core",
  "@opentelemetry/exporter-trace-otlp-http",
  "@opentelemetry/resources",
  "@opentelemetry/sdk-trace",
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // Separate build directories let several test runs build side by side (NEXT_DIST_DIR=.next-e2e-a).
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // server.mjs compresses answers, for the requests that accept an encoding only (lib/http/compress.mjs).
  compress: false,
  // Native and WebAssembly packages (and the Redis client) stay out of the bundle and load from node_modules at run time.
  serverExternalPackages: [
    "better-sqlite3",
    "pg",
    "@prisma/adapter-pg",
    "redis",
    "pino",
    "pino-pretty",
    "prom-client",
    ...TRACING_PACKAGES,
  ],
  // The security headers on everything Next.js serves (API, static files, its own 404s) under
  // `next dev`. Fixed values, matched without running any code per request;
  // pages replace the CSP with their nonce-based one in proxy.dev.ts.
  // In production server.mjs sets them on every response itself (cheaper than a pattern match per request).
  async headers() {
    if (process.env.NODE_ENV === "production") return [];
    return [{ source: "/:path*", headers: Object.entries(SECURITY_HEADERS).map(([key, value]) => ({ key, value })) }];
  },
};

/**
 * proxy.dev.ts is the proxy under `next dev` only: its extension counts as a page extension there and
 * nowhere else, so production builds have no proxy, and server.mjs gives pages their CSP instead.
 */
module.exports = (/** @type {string} */ phase) =>
  phase === PHASE_DEVELOPMENT_SERVER
    ? { ...nextConfig, pageExtensions: ["dev.ts", "tsx", "ts", "jsx", "js"] }
    : nextConfig;
