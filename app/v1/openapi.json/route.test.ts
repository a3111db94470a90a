import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Handler } from "@/lib/http/route";
import { call } from "@/lib/testing/http";
import * as unknown from "@/app/v1/[...path]/route";
import { GET } from "./route";

const v1 = path.resolve(import.meta.dirname, "..");

/** The parts of the OpenAPI document these tests read (the endpoint has no response schema of its own). */
type Operation = {
  description?: string;
  parameters?: { name: string }[];
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
  responses: Record<string, { headers?: Record<string, unknown> }>;
  security: unknown[];
  "x-permission"?: string | null;
  "x-platform-wide"?: boolean;
  "x-extension"?: boolean;
};
type OpenApiDocument = {
  openapi: string;
  info: { description: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { required?: string[] }> };
};

const openApi = () => call<OpenApiDocument>(GET);

/** The document's operation for a method and path; a missing one fails the test. */
function operationOf(document: OpenApiDocument, urlPath: string, method: string): Operation {
  const operation = document.paths[urlPath]?.[method];
  if (!operation) throw new Error(`the document has no ${method} ${urlPath}`);
  return operation;
}

/** Every route.ts under app/v1 with its URL path in OpenAPI form (`[key]` -> `{key}`), except the catch-all. */
function routeFiles(dir = v1, prefix = "/v1"): { file: string; path: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith("[...")) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full, `${prefix}/${entry.name.replace(/^\[(.+)\]$/, "{$1}")}`);
    return entry.name === "route.ts" ? [{ file: full, path: prefix }] : [];
  });
}

describe("GET /v1/openapi.json", () => {
  it("200: an OpenAPI 3.1 document", async () => {
    const response = await openApi();
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe("3.1.0");
    expect(response.body.components.schemas.Error?.required).toEqual([
      "error_code",
      "message",
      "http_code",
      "request_id",
    ]);
  });

  it("documents Idempotency-Key on authenticated POSTs only, with the replay header and its errors", async () => {
    const { body: document } = await openApi();
    const create = operationOf(document, "/v1/delegated_users", "post");
    const header = create.parameters?.find((parameter) => parameter.name === "Idempotency-Key");
    expect(header).toMatchObject({ in: "header", required: false, schema: { minLength: 1, maxLength: 255 } });
    expect(create.responses["201"]?.headers?.["Idempotent-Replayed"]).toBeDefined();
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(["400", "409", "422"]));
    const signIn = operationOf(document, "/v1/sessions", "post");
    expect((signIn.parameters ?? []).some((parameter) => parameter.name === "Idempotency-Key")).toBe(false);
    expect(
      operationOf(document, "/v1/delegated_users", "get").parameters?.some(
        (parameter) => parameter.name === "Idempotency-Key",
      ),
    ).toBe(false);
  });

  it("documents every method of every route file, from the schemas the route validates with", async () => {
    const { body: document } = await openApi();
    const files = routeFiles();
    expect(files.length).toBeGreaterThanOrEqual(8);
    for (const { file, path: urlPath } of files) {
      const handlers = (await import(file)) as Record<string, Handler>;
      for (const [method, handler] of Object.entries(handlers)) {
        if (!handler.endpoint) continue;
        expect(handler.endpoint.path, file).toBe(urlPath);
        const operation = document.paths[urlPath]?.[method.toLowerCase()];
        expect(operation, `${method} ${urlPath}`).toBeDefined();
        if (handler.endpoint.body) expect(operation?.requestBody, `${method} ${urlPath} body`).toBeDefined();
        if (handler.endpoint.totp) {
          expect(operation?.parameters?.map((p) => p.name)).toContain("Service-Totp-Code");
        }
      }
    }
    const issue = operationOf(document, "/v1/api_keys", "post");
    const ref = issue.requestBody?.content["application/json"]?.schema.$ref ?? "no $ref";
    const body = document.components.schemas[ref.replace("#/components/schemas/", "")];
    expect(body?.required).toEqual(["expiresAt"]);
    expect(Object.keys(issue.responses)).toEqual(expect.arrayContaining(["201", "400", "401", "403", "422"]));
  });

  it("shows each operation's permission, its reach and its step-up, and the role table", async () => {
    const { body: document } = await openApi();
    const revoke = operationOf(document, "/v1/api_keys/{key}", "delete");
    expect(revoke["x-permission"]).toBe("api_keys:write");
    expect(revoke.description).toMatch(
      /^Permission: `api_keys:write`\. Step-up: from a session, needs `Service-Totp-Code`\./,
    );
    const employees = operationOf(document, "/v1/employees", "get");
    expect(employees["x-permission"]).toBe("employees:read");
    expect(employees["x-platform-wide"]).toBe(true);
    expect(operationOf(document, "/v1/sessions/current", "get")["x-permission"]).toBeNull();
    expect(operationOf(document, "/v1/setup", "post")).not.toHaveProperty("x-permission");
    for (const operations of Object.values(document.paths)) {
      for (const operation of Object.values(operations))
        if (operation.security.length) expect(operation).toHaveProperty("x-permission");
    }
    expect(document.info.description).toContain("`viewer` (Reads everything, changes nothing)");
  });
});

describe("unknown /v1 routes", () => {
  it("404 in the contract's shape for every method, with a request id", async () => {
    // The module's method exports (it also exports its segment config, `dynamic`).
    const handlers = Object.entries(unknown).filter(([name]) => /^[A-Z]+$/.test(name)) as [string, Handler][];
    expect(handlers.map(([method]) => method).sort()).toEqual(["DELETE", "GET", "PATCH", "POST", "PUT"]);
    for (const [method, handler] of handlers) {
      const response = await call(handler, { method, path: "/v1/no/such/thing" });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        error_code: "err_not_found",
        message: "No route /v1/no/such/thing",
        http_code: 404,
        request_id: response.headers.get("x-request-id"),
      });
      expect(response.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{24}$/);
    }
  });

  it("echoes a sane X-Request-Id and replaces an insane one", async () => {
    const sane = await call(GET, { headers: { "x-request-id": "client-123" } });
    expect(sane.headers.get("x-request-id")).toBe("client-123");
    const insane = await call(GET, { headers: { "x-request-id": "a b\u00e9<script>" } });
    expect(insane.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{24}$/);
  });
});

describe("the document's references", () => {
  it("every $ref points at a schema the document defines", async () => {
    const { body: document } = await openApi();
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"([^"]+)"/g)].map((match) => match[1]!);
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of new Set(refs)) {
      expect(ref, ref).toMatch(/^#\/components\/schemas\//);
      expect(document.components.schemas[ref.replace("#/components/schemas/", "")], ref).toBeDefined();
    }
  });
});

describe("extensions", () => {
  it("marks and lists every route the spec does not have, the audit trail and sandbox among them", async () => {
    const { body: document } = await openApi();
    expect(operationOf(document, "/v1/audit_events", "get")["x-extension"]).toBe(true);
    expect(operationOf(document, "/v1/sandbox/platforms", "post")["x-extension"]).toBe(true);
    expect(operationOf(document, "/v1/api_keys", "post")["x-extension"]).toBeUndefined();
    expect(document.info.description).toContain("`GET /v1/audit_events`");
    expect(document.info.description).toContain("`POST /v1/information_requests/{id}/status`");
  });
});
