import { z } from "zod";
import { describe, expect, it, vi } from "vitest";
import { endpoint } from "@/lib/http/endpoint";
import { route } from "@/lib/http/route";
import { call } from "@/lib/testing/http";

// The wrapper's own rules that no endpoint definition exercises (the walk in
// lib/testing/wrapper-walk.test.ts covers the shared statuses of every real endpoint).

const countEndpoint = endpoint({
  method: "GET",
  path: "/v1/test/count",
  tag: "Test",
  summary: "A count of at most one",
  auth: "public",
  permission: null,
  response: z.object({ count: z.number().int().max(1) }),
  errors: [],
});

describe("route()", () => {
  it("500, not 422, when a handler's answer does not fit its response schema: the bug is the service's, and it is logged", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const handler = route(countEndpoint, async () => ({ count: 5 }));
    const response = await call(handler, { path: "/v1/test/count" });
    expect(response.status).toBe(500);
    expect(response.body).toMatchObject({ error_code: "err_internal", http_code: 500 });
    expect(JSON.stringify(response.body)).not.toContain("count");
    expect(logged).toHaveBeenCalledWith(expect.stringContaining("GET /v1/test/count answered outside its response schema"));
  });

  it("400, not a logged 500, when the client closes the connection before its body is complete", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const handler = route({ ...countEndpoint, method: "POST", body: z.object({ count: z.number() }) }, async ({ body }) => body);
    const cutOff = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"count":'));
      },
      pull(controller) {
        controller.error(new Error("aborted"));
      },
    });
    const request = new Request("http://localhost:3000/v1/test/count", {
      method: "POST",
      headers: { "content-type": "application/json", host: "localhost:3000", origin: "http://localhost:3000" },
      body: cutOff,
      duplex: "half",
    } as RequestInit);
    const response = await handler(request, { params: Promise.resolve({}) });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error_code: "err_bad_request", message: "The body ended before it was complete" });
    expect(logged).not.toHaveBeenCalled();
  });

  it("200 with the answer as the schema gives it", async () => {
    const handler = route(countEndpoint, async () => ({ count: 1 }));
    const response = await call(handler, { path: "/v1/test/count" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ count: 1 });
  });
});
