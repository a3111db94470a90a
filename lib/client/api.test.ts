import { afterEach, describe, expect, expectTypeOf, it, vi } from "vitest";
import { issueApiKeyEndpoint, listApiKeysEndpoint, revokeApiKeyEndpoint } from "@/lib/api-keys/endpoints";
import { api, ApiRequestError, fetchBlob } from "@/lib/client/api";
import { armPasskey, PASSKEY_STAND_IN_CODE } from "@/lib/client/passkeys";
import { endpointGroup } from "@/lib/contract/endpoint";
import { queryKey } from "@/lib/client/query-keys";
import { listWebhookDeliveriesEndpoint, listWebhookEndpointsEndpoint } from "@/lib/webhooks/endpoints";
import type { ResponseOf } from "@/lib/contract/endpoint";
import { uploadInformationRequestDocumentEndpoint } from "@/lib/information-requests/evidence-endpoints";

type Sent = { url: string; init: RequestInit };

function answer(status: number, body: unknown): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    return new Response(body === null ? null : JSON.stringify(body), {
      status,
      headers: { "content-type": "application/json" },
    });
  });
  return sent;
}

/** The one request that was sent. */
function only(sent: Sent[]): Sent {
  expect(sent).toHaveLength(1);
  const [request] = sent;
  if (!request) throw new Error("nothing was sent");
  return request;
}

afterEach(() => vi.unstubAllGlobals());

describe("api(endpoint, options)", () => {
  it("fills the path from the definition, sends the method, the code and the account, and types the answer", async () => {
    const sent = answer(200, { id: "key_1" });
    const result = await api(revokeApiKeyEndpoint, {
      params: { key: "key/1" },
      totpCode: "123456",
      accountId: "acct_2",
    });
    expectTypeOf(result).toEqualTypeOf<ResponseOf<typeof revokeApiKeyEndpoint>>();
    expect(result).toEqual({ id: "key_1" });
    const { url, init } = only(sent);
    expect(url).toBe("/v1/api_keys/key%2F1");
    expect(init.method).toBe("DELETE");
    expect(init.headers).toMatchObject({ "Service-Totp-Code": "123456", "Service-Account-Id": "acct_2" });
    expect(init.body).toBeUndefined();
  });

  it("sends an armed passkey in place of the stand-in code, once; a code typed by hand goes as typed", async () => {
    const sent = answer(200, { id: "key_1" });
    armPasskey("eyJpZCI6ImEifQ");
    await api(revokeApiKeyEndpoint, { params: { key: "key_1" }, totpCode: "123456" });
    await api(revokeApiKeyEndpoint, { params: { key: "key_1" }, totpCode: PASSKEY_STAND_IN_CODE });
    await api(revokeApiKeyEndpoint, { params: { key: "key_1" }, totpCode: PASSKEY_STAND_IN_CODE });
    const headers = sent.map(({ init }) => init.headers as Record<string, string>);
    expect(headers[0]).toMatchObject({ "Service-Totp-Code": "123456" });
    expect(headers[0]).not.toHaveProperty("Service-Passkey-Assertion");
    expect(headers[1]).toMatchObject({ "Service-Passkey-Assertion": "eyJpZCI6ImEifQ" });
    expect(headers[1]).not.toHaveProperty("Service-Totp-Code");
    // Spent by the call that sent it: the stand-in alone is just a (wrong) code.
    expect(headers[2]).toMatchObject({ "Service-Totp-Code": PASSKEY_STAND_IN_CODE });
    expect(headers[2]).not.toHaveProperty("Service-Passkey-Assertion");
  });

  it("sends an upload as multipart/form-data, leaving its Content-Type (and boundary) to fetch", async () => {
    const sent = answer(201, {});
    const file = new File(["%PDF-1.4"], "statement.pdf", { type: "application/pdf" });
    await api(uploadInformationRequestDocumentEndpoint, { params: { id: "ir_1" }, body: { file } });
    const { url, init } = only(sent);
    expect(url).toBe("/v1/information_requests/ir_1/documents");
    expect(init.body).toBeInstanceOf(FormData);
    expect((init.body as FormData).get("file")).toBe(file);
    expect(init.headers).not.toHaveProperty("content-type");
  });

  it("sends the body as JSON and leaves empty query values out", async () => {
    const sent = answer(201, {});
    const body = { name: "ci", expiresAt: "2027-01-01T00:00:00.000Z" };
    await api(issueApiKeyEndpoint, { body });
    expect(only(sent).init.body).toBe(JSON.stringify(body));
    expect(only(sent).init.headers).toMatchObject({ "content-type": "application/json" });
    const deliveries = answer(200, { items: [], next: null });
    await api(listWebhookDeliveriesEndpoint, {
      params: { id: "we_1" },
      query: { onlyFailed: true, next: undefined, limit: 5 },
    });
    expect(only(deliveries).url).toBe("/v1/webhook_endpoints/we_1/events?onlyFailed=true&limit=5");
  });

  it("throws the contract's error as an ApiRequestError", async () => {
    answer(422, {
      error_code: "err_validation",
      message: "Invalid request",
      http_code: 422,
      details: { name: "Too long" },
    });
    const error = await api(listApiKeysEndpoint).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({
      status: 422,
      code: "err_validation",
      message: "Invalid request",
      details: { name: "Too long" },
    });
    answer(502, null);
    await expect(api(listApiKeysEndpoint)).rejects.toMatchObject({
      status: 502,
      code: "err_unknown",
      message: "The server answered 502",
    });
  });

  it("is checked by the compiler against the definition", () => {
    // @ts-expect-error the path has a parameter, so params are required
    void (() => api(revokeApiKeyEndpoint));
    // @ts-expect-error a parameter the path does not have
    void (() => api(revokeApiKeyEndpoint, { params: { id: "x" } }));
    // @ts-expect-error the body's own fields, typed by its schema
    void (() => api(issueApiKeyEndpoint, { body: { name: 42, expiresAt: "2027-01-01T00:00:00.000Z" } }));
    // @ts-expect-error a query parameter the list does not take
    void (() => api(listWebhookDeliveriesEndpoint, { params: { id: "we_1" }, query: { status: "failed" } }));
  });
});

describe("queryKey", () => {
  it("is the filled-in path's segments, then the defined query values, so a collection's key is a prefix of its items' keys", () => {
    expect(queryKey(listWebhookEndpointsEndpoint)).toEqual(["v1", "webhook_endpoints"]);
    expect(
      queryKey(listWebhookDeliveriesEndpoint, { params: { id: "we_1" }, query: { onlyFailed: true, next: undefined } }),
    ).toEqual(["v1", "webhook_endpoints", "we_1", "events", { onlyFailed: true }]);
    expect(queryKey(listWebhookDeliveriesEndpoint, { params: { id: "we_1" }, query: {} })).toEqual([
      "v1",
      "webhook_endpoints",
      "we_1",
      "events",
    ]);
  });
});

describe("fetchBlob(endpoint)", () => {
  const define = endpointGroup({ tag: "Test", auth: "session" });
  const content = define("GET /v1/things/{id}/documents/{documentId}/content", { summary: "bytes", permission: null });

  it("reads bytes as a blob with the account, and a refusal as an error", async () => {
    const sent: Sent[] = [];
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return new Response(new Uint8Array([1, 2, 3]), { status: 200, headers: { "content-type": "image/png" } });
    });
    const blob = await fetchBlob(content, { params: { id: "t_1", documentId: "doc_1" }, accountId: "acct_2" });
    expect(blob.size).toBe(3);
    expect(only(sent).url).toBe("/v1/things/t_1/documents/doc_1/content");
    expect(only(sent).init.headers).toMatchObject({ "Service-Account-Id": "acct_2" });
    answer(404, { error_code: "err_not_found", message: "Document not found" });
    await expect(
      fetchBlob(content, { params: { id: "t_1", documentId: "doc_2" }, accountId: null }),
    ).rejects.toMatchObject({
      status: 404,
    });
  });
});

describe("when the session ends", () => {
  /** A fresh copy of the module (its "on the way to sign-in" state is per tab), in a tab at `path`. */
  async function tabAt(pathname: string, search = "") {
    vi.resetModules();
    const assign = vi.fn();
    vi.stubGlobal("window", { location: { pathname, search, assign } });
    const client = await import("@/lib/client/api");
    return { assign, client };
  }

  it("a 401 sends the tab to sign-in, to come back to this page and its filters, once", async () => {
    const { assign, client } = await tabAt("/information-requests", "?status=open");
    answer(401, { error_code: "err_unauthorized", message: "Sign in again" });
    await expect(client.api(listApiKeysEndpoint, {})).rejects.toMatchObject({ status: 401 });
    await expect(client.api(listApiKeysEndpoint, {})).rejects.toMatchObject({ status: 401 });
    expect(assign.mock.calls).toEqual([["/login?next=%2Finformation-requests%3Fstatus%3Dopen"]]);
  });

  it("signing out goes to sign-in even when a query still in flight answers 401 after the sign-out did", async () => {
    const { assign, client } = await tabAt("/information-requests");
    let signedOut!: () => void;
    const sessionGone = new Promise<void>((resolve) => (signedOut = resolve));
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      if (url === "/v1/sessions/current" && init.method === "DELETE") {
        signedOut();
        return new Response(null, { status: 204 });
      }
      await sessionGone;
      return new Response(JSON.stringify({ error_code: "err_unauthorized", message: "Sign in again" }), {
        status: 401,
        headers: { "content-type": "application/json" },
      });
    });
    const query = client.api(listApiKeysEndpoint, {});
    await client.signOut();
    await expect(query).rejects.toMatchObject({ status: 401 });
    expect(assign.mock.calls).toEqual([["/login"]]);
  });

  it("signing out goes to sign-in when the call does not get through", async () => {
    const { assign, client } = await tabAt("/security");
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("Failed to fetch");
    });
    await client.signOut();
    expect(assign.mock.calls).toEqual([["/login"]]);
  });
});
