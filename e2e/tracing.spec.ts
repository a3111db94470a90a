import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "@playwright/test";
import { httpRequest, OWNER, startServer, type Server } from "./fixtures";
import { test as pgTest } from "./postgresql-fixture";

// OpenTelemetry traces from the production server (server.mjs): with OTEL_EXPORTER_OTLP_ENDPOINT set, each
// request's span, named by method and route template, reaches an OTLP/HTTP receiver (this test's own
// node:http server, JSON encoding) with a span per database statement in its trace, and nothing secret in
// any of it; unset, the server loads no OpenTelemetry module besides the API Next.js itself requires.

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean };
type OtlpAttribute = { key: string; value: OtlpValue };
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: OtlpAttribute[];
};
type OtlpExport = {
  resourceSpans: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
};

/** A tiny OTLP/HTTP collector: POST /v1/traces, JSON bodies kept as they came (their raw text too). */
async function startCollector() {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const known = req.method === "POST" && req.url === "/v1/traces";
      if (known) bodies.push(Buffer.concat(chunks).toString("utf8"));
      res.writeHead(known ? 200 : 404, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    /** Every body received, as text. */
    raw: () => bodies.join("\n"),
    spans: () =>
      bodies
        .flatMap((body) => (JSON.parse(body) as OtlpExport).resourceSpans)
        .flatMap((resourceSpans) => {
          const resource = resourceSpans.resource?.attributes ?? [];
          return resourceSpans.scopeSpans.flatMap((scope) => scope.spans.map((span) => ({ ...span, resource })));
        }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
type Collector = Awaited<ReturnType<typeof startCollector>>;
type ReceivedSpan = ReturnType<Collector["spans"]>[number];

const attribute = (attributes: OtlpAttribute[] | undefined, key: string) => {
  const value = attributes?.find((entry) => entry.key === key)?.value;
  return value?.stringValue ?? value?.intValue ?? value?.boolValue;
};

/** Whether `span` descends from `ancestor` (its parents, followed within the spans received). */
function descendsFrom(span: ReceivedSpan, ancestor: ReceivedSpan, spans: ReceivedSpan[]): boolean {
  const byId = new Map(spans.map((each) => [each.spanId, each]));
  for (let at = span.parentSpanId; at; at = byId.get(at)?.parentSpanId) if (at === ancestor.spanId) return true;
  return false;
}

/** The request span called `name` once it has arrived with a statement of `system` in its trace under it. */
async function requestSpanWithStatements(collector: Collector, name: string, system: string) {
  let found: { request: ReceivedSpan; statements: ReceivedSpan[] } | undefined;
  // The SDK sends its batches every 5 seconds.
  await expect
    .poll(
      () => {
        const spans = collector.spans();
        const request = spans.find((span) => span.name === name && !span.parentSpanId);
        const statements = spans.filter(
          (span) => request && attribute(span.attributes, "db.system") === system && descendsFrom(span, request, spans),
        );
        if (request && statements.length > 0) found = { request, statements };
        return found ? "arrived" : collector.spans().map((span) => span.name);
      },
      { timeout: 30_000, message: `a span "${name}" with a ${system} statement under it` },
    )
    .toBe("arrived");
  return found!;
}

/**
 * A preload that notes each @opentelemetry package the server process resolves (require and import alike,
 * through node:module's registerHooks) in `file`, one name a line: what the process really loaded.
 */
function packageRecorder(dir: string) {
  const file = path.join(dir, "opentelemetry-packages.txt");
  const preload = path.join(dir, "record-opentelemetry.mjs");
  writeFileSync(file, "");
  writeFileSync(
    preload,
    [
      'import { appendFileSync } from "node:fs";',
      'import { registerHooks } from "node:module";',
      "const seen = new Set();",
      "registerHooks({",
      "  resolve(specifier, context, nextResolve) {",
      "    const resolved = nextResolve(specifier, context);",
      '    const name = /\\/node_modules\\/(@opentelemetry\\/[^/]+)\\//.exec(resolved.url ?? "")?.[1];',
      `    if (name && !seen.has(name)) { seen.add(name); appendFileSync(${JSON.stringify(file)}, name + "\\n"); }`,
      "    return resolved;",
      "  },",
      "});",
    ].join("\n"),
  );
  return {
    env: { NODE_OPTIONS: `--import=${pathToFileURL(preload).href}` },
    loaded: () => readFileSync(file, "utf8").split("\n").filter(Boolean).sort(),
  };
}

/** First-run setup, then a sandbox platform's API key and the owner's session cookie. */
async function tenant(server: Server) {
  const setup = await httpRequest(`${server.baseURL}/v1/setup`, { method: "POST", body: OWNER });
  expect(setup.status, setup.body).toBe(201);
  const cookie = setup.headers["set-cookie"]![0]!.split(";")[0]!;
  const platform = await httpRequest(`${server.baseURL}/v1/sandbox/platforms`, {
    method: "POST",
    body: { accountName: "Traced Payments" },
    headers: { cookie, origin: server.baseURL },
  });
  expect(platform.status, platform.body).toBe(201);
  return { cookie, apiKey: (platform.json().apiKey as { secret: string }).secret };
}

/** A sign-in that reads the database and fails: its e-mail and password go to statements as bound values only. */
const WRONG_SIGN_IN = { email: "nobody-traced@acme.example", password: "a wrong traced passphrase" };

test("with OTEL_EXPORTER_OTLP_ENDPOINT set, each request's span (method and route template) arrives with its statements under it, and nothing secret", async ({}, testInfo) => {
  const collector = await startCollector();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "pmc-e2e-tracing-"));
  const recorder = packageRecorder(dataDir);
  const server = await startServer(
    {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_SERVICE_NAME: "pcs-tracing-e2e",
      LOG_FORMAT: "json",
      ...recorder.env,
    },
    dataDir,
  );
  try {
    const { cookie, apiKey } = await tenant(server);
    const bearer = { authorization: `Bearer ${apiKey}` };
    const keys = await httpRequest(`${server.baseURL}/v1/api_keys`, { headers: bearer });
    expect(keys.status, keys.body).toBe(200);
    const keyId = (JSON.parse(keys.body) as { id: string }[])[0]!.id;
    const usage = await httpRequest(`${server.baseURL}/v1/api_keys/${keyId}/usage`, { headers: bearer });
    expect(usage.status, usage.body).toBe(200);
    const signIn = await httpRequest(`${server.baseURL}/v1/sessions`, { method: "POST", body: WRONG_SIGN_IN });
    expect(signIn.status, signIn.body).toBe(401);
    expect((await httpRequest(`${server.baseURL}/healthz?probe=query-secret-123`)).status).toBe(200);

    const keyRead = await requestSpanWithStatements(collector, "GET /v1/api_keys/{key}/usage", "sqlite");
    expect(attribute(keyRead.request.attributes, "http.route")).toBe("/v1/api_keys/{key}/usage");
    expect(attribute(keyRead.request.attributes, "http.target")).toBe(`/v1/api_keys/${keyId}/usage`);
    const failedSignIn = await requestSpanWithStatements(collector, "POST /v1/sessions", "sqlite");
    for (const statement of failedSignIn.statements) {
      expect(statement.traceId).toBe(failedSignIn.request.traceId);
      expect(String(attribute(statement.attributes, "db.statement"))).toMatch(/^\s*[A-Za-z]+\b/);
    }
    // The query string stays behind (a reset link's or a sign-in callback's carries a secret).
    await expect
      .poll(() => collector.spans().find((span) => span.name === "GET /healthz")?.attributes)
      .toContainEqual({ key: "http.target", value: { stringValue: "/healthz" } });
    expect(attribute(failedSignIn.request.resource, "service.name")).toBe("pcs-tracing-e2e");
    // The request's access line names its trace.
    const accessLine = server
      .output()
      .split("\n")
      .find((line) => line.includes("/v1/api_keys/{key}/usage") && line.includes("traceId"));
    expect(accessLine, "the usage request's access line names its trace").toContain(keyRead.request.traceId);

    // No secret and no bound value anywhere in what left the process.
    const sent = collector.raw();
    for (const secret of [
      apiKey,
      cookie.split("=")[1]!,
      WRONG_SIGN_IN.email,
      WRONG_SIGN_IN.password,
      "query-secret-123",
    ])
      expect(sent).not.toContain(secret);
    // The control for the test below: the recorder sees the SDK when it is loaded.
    expect(recorder.loaded()).toEqual(expect.arrayContaining(["@opentelemetry/api", "@opentelemetry/sdk-trace"]));
  } finally {
    if (testInfo.status !== testInfo.expectedStatus) writeFileSync(testInfo.outputPath("server.log"), server.output());
    await server.stop();
    await collector.close();
  }
});

test("without OTEL_EXPORTER_OTLP_ENDPOINT the server loads no OpenTelemetry module but the API Next.js requires itself", async ({}, testInfo) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "pmc-e2e-untraced-"));
  const recorder = packageRecorder(dataDir);
  const server = await startServer({ OTEL_EXPORTER_OTLP_ENDPOINT: "", ...recorder.env }, dataDir);
  try {
    await tenant(server);
    const signIn = await httpRequest(`${server.baseURL}/v1/sessions`, { method: "POST", body: WRONG_SIGN_IN });
    expect(signIn.status, signIn.body).toBe(401);
    // next/dist/server/lib/trace/tracer.js requires @opentelemetry/api whatever the configuration.
    expect(recorder.loaded().filter((name) => name !== "@opentelemetry/api")).toEqual([]);
  } finally {
    if (testInfo.status !== testInfo.expectedStatus) writeFileSync(testInfo.outputPath("server.log"), server.output());
    await server.stop();
  }
});

pgTest("on PostgreSQL, a request's statements are spans of its trace too", async ({ database }, testInfo) => {
  const collector = await startCollector();
  const server = await startServer({
    DATABASE_URL: database,
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
    OTEL_SERVICE_NAME: "",
  });
  try {
    const { apiKey } = await tenant(server);
    const keys = await httpRequest(`${server.baseURL}/v1/api_keys`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(keys.status, keys.body).toBe(200);
    const signIn = await httpRequest(`${server.baseURL}/v1/sessions`, { method: "POST", body: WRONG_SIGN_IN });
    expect(signIn.status, signIn.body).toBe(401);
    // The key's look-up is a raw read on the pool; the sign-in goes through Prisma's driver adapter.
    await requestSpanWithStatements(collector, "GET /v1/api_keys", "postgresql");
    await requestSpanWithStatements(collector, "POST /v1/sessions", "postgresql");
    expect(attribute(collector.spans()[0]!.resource, "service.name")).toBe("platform-compliance-service");
    for (const secret of [apiKey, WRONG_SIGN_IN.email, WRONG_SIGN_IN.password])
      expect(collector.raw()).not.toContain(secret);
  } finally {
    if (testInfo.status !== testInfo.expectedStatus) writeFileSync(testInfo.outputPath("server.log"), server.output());
    await server.stop();
    await collector.close();
  }
});
