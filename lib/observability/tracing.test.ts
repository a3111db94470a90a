import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ReadableSpan } from "@opentelemetry/sdk-trace";
import { describe, expect, it } from "vitest";
import { activeTraceId, startTracing, tracedStatement, tracingEnabled } from "@/lib/observability/tracing";
import { publicSpan, templateOf } from "@/lib/observability/tracing-spans";

// Tracing off (OTEL_EXPORTER_OTLP_ENDPOINT unset) is one property read per statement and loads nothing of
// OpenTelemetry; e2e/tracing.spec.ts covers the spans a production server sends when it is on.

const root = path.resolve(import.meta.dirname, "../..");

/**
 * Runs `script` in a fresh Node.js process (TypeScript through tsx, as the scripts run) that notes each
 * @opentelemetry package it resolves, import and require alike; answers the JSON line it prints.
 */
function inFreshProcess(script: string, env: Record<string, string>): Record<string, unknown> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "pcs-tracing-")), "probe.mjs");
  writeFileSync(
    file,
    `import { registerHooks } from "node:module";
const opentelemetry = new Set();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    const name = /\\/node_modules\\/(@opentelemetry\\/[^/]+)\\//.exec(resolved.url ?? "")?.[1];
    if (name) opentelemetry.add(name);
    return resolved;
  },
});
const answer = {};
${script}
answer.opentelemetry = [...opentelemetry].sort();
console.log(JSON.stringify(answer, (_, value) => (typeof value === "bigint" ? Number(value) : value)));`,
  );
  const output = execFileSync(process.execPath, ["--import", "tsx", file], {
    cwd: root,
    env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: "", ...env },
    encoding: "utf8",
  });
  return JSON.parse(output.trim().split("\n").at(-1)!) as Record<string, unknown>;
}

describe("tracing off", () => {
  it("is off, has no trace id, and runs statements as they are, values, promises and errors alike", async () => {
    expect(tracingEnabled()).toBe(false);
    expect(activeTraceId()).toBeUndefined();
    expect(tracedStatement("sqlite", "SELECT 1", () => 1)).toBe(1);
    await expect(tracedStatement("postgresql", "SELECT 2", () => Promise.resolve(2))).resolves.toBe(2);
    expect(() =>
      tracedStatement("sqlite", "SELECT x", () => {
        throw new Error("no such column: x");
      }),
    ).toThrow("no such column: x");
  });

  it("stays off without OTEL_EXPORTER_OTLP_ENDPOINT", async () => {
    await expect(startTracing({ OTEL_SERVICE_NAME: "named" })).resolves.toBe(false);
    await expect(startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: "" })).resolves.toBe(false);
    expect(tracingEnabled()).toBe(false);
  });

  it("loads no OpenTelemetry module while statements run through Prisma and the raw SQL layer; set, it loads the SDK", () => {
    const run = `
const tracing = await import("@/lib/observability/tracing");
const database = await import("@/lib/db");
answer.started = await tracing.startTracing();
answer.raw = await database.rawQuery("SELECT 1 AS one");
answer.prisma = await database.db().$queryRawUnsafe("SELECT 2 AS two");
await database.disconnectDb();
await tracing.stopTracing();`;
    const databaseUrl = `file:${path.join(mkdtempSync(path.join(tmpdir(), "pcs-tracing-db-")), "probe.db")}`;
    // Not on PostgreSQL: this is about what the process loads, the same with either database.
    const off = inFreshProcess(run, { DATABASE_URL: databaseUrl });
    expect(off).toEqual({ started: false, raw: [{ one: 1 }], prisma: [{ two: 2 }], opentelemetry: [] });
    // The control: the same probe sees the SDK once tracing starts (nothing listens there; nothing is sent).
    const on = inFreshProcess(run, { DATABASE_URL: databaseUrl, OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" });
    expect(on.started).toBe(true);
    expect(on.opentelemetry).toEqual(expect.arrayContaining(["@opentelemetry/api", "@opentelemetry/sdk-trace"]));
  });
});

describe("Next.js's spans as they leave the process", () => {
  it("names routes by their template, as the API documents them", () => {
    expect(templateOf("GET /v1/api_keys/[key]")).toBe("GET /v1/api_keys/{key}");
    expect(templateOf("POST /v1/kyc/submissions/[submissionId]/agreements")).toBe(
      "POST /v1/kyc/submissions/{submissionId}/agreements",
    );
    expect(templateOf("GET /v1/[...path]")).toBe("GET /v1/{path*}");
    expect(templateOf("GET /docs/[[...slug]]")).toBe("GET /docs/{slug*}");
    expect(templateOf("RSC GET /(dashboard)/employees/[id]")).toBe("RSC GET /employees/{id}");
    expect(templateOf("GET /healthz")).toBe("GET /healthz");
    expect(templateOf("fetch GET https://example.com/a?token=x")).toBe("fetch GET https://example.com/a");
  });

  it("renames Next.js's spans and drops query strings; leaves other spans (statements) as they are", () => {
    const ended = {
      name: "GET /v1/api_keys/[key]",
      attributes: {
        "next.span_type": "BaseServer.handleRequest",
        "http.route": "/v1/api_keys/[key]",
        "http.target": "/v1/api_keys/key_1?token=secret",
        "url.query": "token=secret",
      },
    } as unknown as ReadableSpan;
    const shown = publicSpan(ended);
    expect(shown.name).toBe("GET /v1/api_keys/{key}");
    expect(shown.attributes).toEqual({
      "next.span_type": "BaseServer.handleRequest",
      "http.route": "/v1/api_keys/{key}",
      "http.target": "/v1/api_keys/key_1",
    });
    const statement = { name: "SELECT", attributes: { "db.system": "sqlite" } } as unknown as ReadableSpan;
    expect(publicSpan(statement)).toBe(statement);
  });
});
