import { z } from "zod";
import { describe, expect, it, vi } from "vitest";
import { endpoint } from "@/lib/contract/endpoint";
import { ApiError } from "@/lib/http/api-error";
import { SERVER_REQUEST_ID_HEADER, SERVER_REQUEST_IDS } from "@/lib/http/edge.mjs";
import { DomainError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { immutable } from "@/lib/immutable";
import { db } from "@/lib/db";
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
    expect(logged).toHaveBeenCalledWith(
      expect.stringContaining("GET /v1/test/count answered outside its response schema"),
    );
  });

  it("a secret-bearing answer that fails its schema is logged without the secret", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const secretEndpoint = {
      ...countEndpoint,
      secretResponse: true as const,
      response: z.object({ secret: z.string().max(8), count: z.literal(1) }),
    };
    const handler = route(secretEndpoint, async () => ({ secret: "svc_shownOnceNeverLogged", count: 2 as 1 }));
    const response = await call(handler, { path: "/v1/test/count" });
    expect(response.status).toBe(500);
    expect(logged).toHaveBeenCalledWith(expect.stringContaining("answered outside its response schema"));
    for (const [line] of logged.mock.calls) expect(String(line)).not.toContain("shownOnceNeverLogged");
    expect(JSON.stringify(response.body)).not.toContain("shownOnceNeverLogged");
  });

  it("a 500 quotes the server's own request id, which the log and the audit record name; the header echoes the client's", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const failing = route({ ...countEndpoint, method: "POST", action: "test.fail" }, async () => {
      throw new Error("boom");
    });
    const response = await call(failing, {
      method: "POST",
      path: "/v1/test/count",
      headers: { "x-request-id": "client-chosen-1" },
    });
    expect(response.status).toBe(500);
    expect(response.headers.get("x-request-id")).toBe("client-chosen-1");
    const quoted = /quote request id (req_[0-9a-f]{24})/.exec(String(response.body.message))?.[1];
    expect(quoted, String(response.body.message)).toBeDefined();
    expect(logged).toHaveBeenCalledWith(
      expect.stringContaining(`[${quoted}] (client X-Request-Id client-chosen-1) unhandled Error`),
    );
    const event = await db().auditEvent.findFirstOrThrow({ where: { action: "test.fail", requestId: quoted } });
    expect(event).toMatchObject({ status: 500, clientRequestId: "client-chosen-1" });
    expect(response.body.request_id).toBe(quoted);
  });

  // The fourth outside attack: a 500's header named one id and its body another, and every audit record
  // carried a client id the client never sent.
  it("without a client id: the header, the body's request_id, the quoted id, the log and the audit record name one id, and clientRequestId is null", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const failing = route({ ...countEndpoint, method: "POST", action: "test.fail_quietly" }, async () => {
      throw new Error("boom");
    });
    const response = await call(failing, { method: "POST", path: "/v1/test/count" });
    expect(response.status).toBe(500);
    const id = response.headers.get("x-request-id")!;
    expect(id).toMatch(/^req_[0-9a-f]{24}$/);
    expect(response.body).toMatchObject({
      request_id: id,
      message: `Internal error; quote request id ${id} when reporting it`,
    });
    expect(logged).toHaveBeenCalledWith(expect.stringMatching(new RegExp(`^\\[${id}\\] unhandled Error`)));
    const event = await db().auditEvent.findFirstOrThrow({ where: { action: "test.fail_quietly" } });
    expect(event).toMatchObject({ requestId: id, clientRequestId: null });
  });

  it("takes server.mjs's id of the request only while server.mjs is in front; a client's header of that name is never believed", async () => {
    const counted = route({ ...countEndpoint, method: "POST", action: "test.counted" }, async () => ({
      count: 1 as const,
    }));
    const handed = "req_0123456789abcdef01234567";
    const send = () =>
      call(counted, { method: "POST", path: "/v1/test/count", headers: { [SERVER_REQUEST_ID_HEADER]: handed } });
    const alone = await send();
    expect(alone.headers.get("x-request-id")).not.toBe(handed);
    const flags = globalThis as Record<symbol, unknown>;
    flags[SERVER_REQUEST_IDS] = true;
    try {
      const behind = await send();
      expect(behind.headers.get("x-request-id")).toBe(handed);
      const event = await db().auditEvent.findFirstOrThrow({ where: { action: "test.counted", requestId: handed } });
      expect(event.clientRequestId).toBeNull();
    } finally {
      delete flags[SERVER_REQUEST_IDS];
    }
  });

  it("a client id of 1 to 128 visible ASCII characters is echoed and kept apart; anything else is not a client id", async () => {
    const refusing = route({ ...countEndpoint, method: "POST", action: "test.refuse" }, async () => {
      throw new DomainError("conflict", "no");
    });
    for (const [sent, kept] of [
      ["client/id<1>!~", "client/id<1>!~"],
      ["x".repeat(128), "x".repeat(128)],
      ["x".repeat(129), null],
      ["with space", null],
      ["caf\u00e9", null],
    ] as const) {
      const response = await call(refusing, {
        method: "POST",
        path: "/v1/test/count",
        headers: { "x-request-id": sent },
      });
      expect(response.status, sent).toBe(409);
      expect(response.body.request_id).toMatch(/^req_[0-9a-f]{24}$/);
      expect(response.headers.get("x-request-id"), sent).toBe(kept ?? response.body.request_id);
      const event = await db().auditEvent.findFirstOrThrow({
        where: { requestId: response.body.request_id as string },
      });
      expect(event.clientRequestId, sent).toBe(kept);
    }
  });

  it("400, not a logged 500, when the client closes the connection before its body is complete", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const handler = route(
      { ...countEndpoint, method: "POST", body: z.object({ count: z.number() }) },
      async ({ body }) => body,
    );
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
    expect(await response.json()).toMatchObject({
      error_code: "err_bad_request",
      message: "The body ended before it was complete",
    });
    expect(logged).not.toHaveBeenCalled();
  });

  it("200 with the answer as the schema gives it", async () => {
    const handler = route(countEndpoint, async () => ({ count: 1 }));
    const response = await call(handler, { path: "/v1/test/count" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ count: 1 });
  });

  it("takes an answer given at once (no promise) as it takes a promised one, and a thrown refusal as a rejected one", async () => {
    const answered = route(countEndpoint, () => ({ count: 1 }));
    expect((await call(answered, { path: "/v1/test/count" })).body).toEqual({ count: 1 });
    const refused = route(countEndpoint, () => {
      throw new ApiError("err_conflict", "Not now");
    });
    const response = await call(refused, { path: "/v1/test/count" });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ error_code: "err_conflict", message: "Not now" });
  });

  it("keeps an immutable result's checked JSON while the same result comes back, and only then", async () => {
    const listed = z.object({ items: z.array(z.object({ id: z.string() })) });
    const listEndpoint = { ...countEndpoint, path: "/v1/test/list", response: listed };
    const parse = vi.spyOn(listed, "safeParse");
    let current = immutable({ items: [{ id: "a", secret: "not in the schema" }] });
    const handler = route(listEndpoint, () => current);
    const first = await call(handler, { path: "/v1/test/list" });
    const again = await call(handler, { path: "/v1/test/list" });
    expect(first.body).toEqual({ items: [{ id: "a" }] });
    expect(again.body).toEqual(first.body);
    expect(parse).toHaveBeenCalledTimes(1);
    // Another result is answered afresh (and checked): what is kept never outlives the object it came from.
    current = immutable({ items: [{ id: "b", secret: "not in the schema" }] });
    expect((await call(handler, { path: "/v1/test/list" })).body).toEqual({ items: [{ id: "b" }] });
    expect(parse).toHaveBeenCalledTimes(2);
    // A result that is not immutable is checked on every answer, even when it is the same object.
    const plain = { items: [{ id: "c" }] };
    const plainHandler = route(listEndpoint, () => plain);
    await call(plainHandler, { path: "/v1/test/list" });
    plain.items[0]!.id = "d";
    expect((await call(plainHandler, { path: "/v1/test/list" })).body).toEqual({ items: [{ id: "d" }] });
    expect(parse).toHaveBeenCalledTimes(4);
  });

  it("keeps an immutable result's answer per route: another route's schema still applies to the same object", async () => {
    const shared = immutable({ count: 1, extra: "dropped by the first schema only" });
    const strict = route(countEndpoint, () => shared);
    const loose = route(
      { ...countEndpoint, response: z.object({ count: z.number(), extra: z.string() }) },
      () => shared,
    );
    expect((await call(strict, { path: "/v1/test/count" })).body).toEqual({ count: 1 });
    expect((await call(loose, { path: "/v1/test/count" })).body).toEqual({
      count: 1,
      extra: "dropped by the first schema only",
    });
  });
});
