import { describe, expect, it } from "vitest";
import { POST as createEndpoint } from "@/app/v1/webhook_endpoints/route";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { apiKeyFor, platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { DELETE, GET, POST } from "./route";

async function endpointOf(apiKey: string, extra: Record<string, unknown> = {}) {
  const response = await call(createEndpoint, {
    method: "POST",
    apiKey,
    body: { url: "https://hooks.example.com/in", events: ["transfer.created"], ...extra },
  });
  expect(response.status).toBe(201);
  return response.body;
}

/** My platform (account and key) with an endpoint, and another platform with one. */
async function mineAndTheirs() {
  const { account, apiKey } = await platformWithKey();
  const other = await platformWithKey();
  const mine = await endpointOf(apiKey);
  const theirs = await endpointOf(other.apiKey);
  return { account, apiKey, mine, theirs };
}

const at = (id: string) => ({ params: { id }, path: `/v1/webhook_endpoints/${id}` });

describe("GET /v1/webhook_endpoints/{id}", () => {
  it("200: the endpoint; 404 for another platform's, a deleted one or an id that exists nowhere; 403 without webhooks:read", async () => {
    const { account, apiKey, mine, theirs } = await mineAndTheirs();
    const response = await call(GET, { apiKey, ...at(mine.id) });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(mine);
    for (const id of [theirs.id, newId("we"), "not-an-id"]) {
      const missing = await call(GET, { apiKey, ...at(id) });
      expectError(missing, 404, "err_not_found");
    }
    await call(DELETE, { method: "DELETE", apiKey, ...at(mine.id) });
    expect((await call(GET, { apiKey, ...at(mine.id) })).status).toBe(404);
    const none = await apiKeyFor(account.id, { permissions: ["api_keys:read"] });
    expect((await call(GET, { apiKey: none.secret, ...at(theirs.id) })).status).toBe(403);
  });
});

describe("POST /v1/webhook_endpoints/{id}", () => {
  it("200: changes only the fields sent; the key pair stays; enabling clears an automatic disable", async () => {
    const { apiKey } = await platformWithKey();
    const mine = await endpointOf(apiKey, { description: "Before" });
    const moved = await call(POST, {
      method: "POST",
      apiKey,
      ...at(mine.id),
      body: { url: "https://new.example.com/in", events: ["recipient.deleted"] },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({ ...mine, url: "https://new.example.com/in", subscribedEvents: ["recipient.deleted"] });
    const cleared = await call(POST, {
      method: "POST",
      apiKey,
      ...at(mine.id),
      body: { description: null, enabled: false },
    });
    expect(cleared.body).toMatchObject({ description: null, enabled: false, publicKey: mine.publicKey });
    await db().webhookEndpoint.update({ where: { id: mine.id }, data: { disabledAt: new Date() } });
    const enabled = await call(POST, { method: "POST", apiKey, ...at(mine.id), body: { enabled: true } });
    expect(enabled.body.enabled).toBe(true);
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: mine.id } })).disabledAt).toBeNull();
  });

  it("422 for a refused URL or an unknown event, nothing changed; 404 for another platform's endpoint, unchanged", async () => {
    const { apiKey, mine, theirs } = await mineAndTheirs();
    const badUrl = await call(POST, {
      method: "POST",
      apiKey,
      ...at(mine.id),
      body: { url: "https://169.254.169.254/" },
    });
    expect(badUrl.status).toBe(422);
    expect(Object.keys(badUrl.body.details ?? {})).toEqual(["url"]);
    const badEvent = await call(POST, { method: "POST", apiKey, ...at(mine.id), body: { events: ["nope"] } });
    expect(badEvent.status).toBe(422);
    expect(Object.keys(badEvent.body.details ?? {})).toEqual(["events.0"]);
    expect((await call(GET, { apiKey, ...at(mine.id) })).body).toEqual(mine);
    const foreign = await call(POST, { method: "POST", apiKey, ...at(theirs.id), body: { description: "hijacked" } });
    expect(foreign.status).toBe(404);
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: theirs.id } })).description).toBeNull();
  });

  it("from a session needs Service-Totp-Code (step-up); 403 for a viewer", async () => {
    const { account, session, authenticator } = await signedInEmployee({ totp: true });
    const key = await apiKeyFor(account.id);
    const mine = await endpointOf(key.secret);
    const noCode = await call(POST, { method: "POST", session, ...at(mine.id), body: { description: "x" } });
    expectError(noCode, 400, "err_otp_required");
    const ok = await call(POST, {
      method: "POST",
      session,
      totp: authenticator!.nextCode(),
      ...at(mine.id),
      body: { description: "x" },
    });
    expect(ok.status).toBe(200);
    const viewer = await signedInEmployee({ role: "viewer", platform: account });
    const refused = await call(POST, {
      method: "POST",
      session: viewer.session,
      ...at(mine.id),
      body: { description: "y" },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.details).toEqual({ permission: "webhooks:write" });
  });
});

describe("DELETE /v1/webhook_endpoints/{id}", () => {
  it("200: the endpoint; its pending deliveries fail; then 404; another platform's answers 404 and stays", async () => {
    const { account, apiKey, mine, theirs } = await mineAndTheirs();
    const pending = await db().webhookDelivery.create({
      data: {
        id: newId("evt"),
        accountId: account.id,
        webhookEndpointId: mine.id,
        eventType: "transfer.created",
        eventData: "{}",
        nextAttemptAt: new Date(),
      },
    });
    const delivered = await db().webhookDelivery.create({
      data: {
        id: newId("evt"),
        accountId: account.id,
        webhookEndpointId: mine.id,
        eventType: "transfer.created",
        eventData: "{}",
        status: "delivered",
      },
    });
    const response = await call(DELETE, { method: "DELETE", apiKey, ...at(mine.id) });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: mine.id, url: "https://hooks.example.com/in" });
    expect(JSON.stringify(response.body)).not.toContain("PRIVATE");
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: pending.id } })).toMatchObject({
      status: "failed",
      lastError: "endpoint deleted",
      nextAttemptAt: null,
    });
    expect((await db().webhookDelivery.findUniqueOrThrow({ where: { id: delivered.id } })).status).toBe("delivered");
    expect((await call(DELETE, { method: "DELETE", apiKey, ...at(mine.id) })).status).toBe(404);
    expect((await call(DELETE, { method: "DELETE", apiKey, ...at(theirs.id) })).status).toBe(404);
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: theirs.id } })).deletedAt).toBeNull();
  });

  it("from a session needs Service-Totp-Code", async () => {
    const { account, session, authenticator } = await signedInEmployee({ totp: true });
    const mine = await endpointOf((await apiKeyFor(account.id)).secret);
    expect((await call(DELETE, { method: "DELETE", session, ...at(mine.id) })).body.error_code).toBe(
      "err_otp_required",
    );
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: mine.id } })).deletedAt).toBeNull();
    expect(
      (await call(DELETE, { method: "DELETE", session, totp: authenticator!.nextCode(), ...at(mine.id) })).status,
    ).toBe(200);
  });
});
