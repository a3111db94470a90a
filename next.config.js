// @ts-check
/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // Separate build directories let several test runs build side by side (NEXT_DIST_DIR=.next-e2e-a).
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // Native and WebAssembly packages stay out of the bundle and load from node_modules at run time.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3"],
};

module.exports = nextConfig;
