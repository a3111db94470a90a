import { describe, expect, it } from "vitest";
import { POST as retry } from "@/app/v1/webhook_endpoints/[id]/events/[eventId]/retry/route";
import { POST as sendTest } from "@/app/v1/webhook_endpoints/[id]/test/route";
import { POST as createEndpoint } from "@/app/v1/webhook_endpoints/route";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { apiKeyFor, platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { GET } from "./route";

async function endpointOf(apiKey: string) {
  const response = await call(createEndpoint, {
    method: "POST",
    apiKey,
    body: { url: "https://hooks.example.com/in", events: ["transfer.created"] },
  });
  expect(response.status).toBe(201);
  return response.body;
}

async function deliveryOf(endpoint: { id: string; ownerId: string }, fields: Record<string, unknown> = {}) {
  return db().webhookDelivery.create({
    data: {
      id: newId("evt"),
      accountId: endpoint.ownerId,
      webhookEndpointId: endpoint.id,
      eventType: "transfer.created",
      eventData: { id: "tr_x", accountId: endpoint.ownerId },
      nextAttemptAt: new Date(),
      ...fields,
    },
  });
}

const list = (apiKey: string, id: string, query = "") =>
  call(GET, { apiKey, params: { id }, path: `/v1/webhook_endpoints/${id}/events${query}` });

describe("GET /v1/webhook_endpoints/{id}/events", () => {
  it("200: a cursor page of the endpoint's deliveries, newest first, in the contract's shape", async () => {
    const { apiKey } = await platformWithKey();
    const endpoint = await endpointOf(apiKey);
    const other = await endpointOf(apiKey);
    const old = await deliveryOf(endpoint, { occurredAt: new Date("2026-01-01T00:00:00Z") });
    const recent = await deliveryOf(endpoint, {
      occurredAt: new Date("2026-02-01T00:00:00Z"),
      status: "delivered",
      attempts: 1,
      responseStatusCode: 200,
      responseBody: "ok",
      lastAttemptAt: new Date("2026-02-01T00:00:01Z"),
      nextAttemptAt: null,
    });
    await deliveryOf(other);
    const first = await list(apiKey, endpoint.id, "?limit=1");
    expect(first.status).toBe(200);
    expect(first.body.items).toEqual([
      {
        id: recent.id,
        ownerId: endpoint.ownerId,
        occurredAt: "2026-02-01T00:00:00.000Z",
        webhookEndpointId: endpoint.id,
        eventType: "transfer.created",
        eventData: { id: "tr_x", accountId: endpoint.ownerId },
        status: "delivered",
        attempts: 1,
        responseStatusCode: 200,
        responseBody: "ok",
        lastError: null,
        lastAttemptAt: "2026-02-01T00:00:01.000Z",
        nextAttemptAt: null,
      },
    ]);
    const second = await list(apiKey, endpoint.id, `?limit=1&next=${first.body.next}`);
    expect(second.body.items.map((item) => item.id)).toEqual([old.id]);
    expect(second.body.next).toBeNull();
  });

  it("onlyFailed keeps given-up deliveries and those whose last attempt failed; startDate/endDate bound occurredAt", async () => {
    const { apiKey } = await platformWithKey();
    const endpoint = await endpointOf(apiKey);
    const failed = await deliveryOf(endpoint, {
      status: "failed",
      attempts: 9,
      occurredAt: new Date("2026-03-01T10:00:00Z"),
    });
    const retrying = await deliveryOf(endpoint, {
      status: "pending",
      attempts: 2,
      lastError: "HTTP 500",
      occurredAt: new Date("2026-03-02T10:00:00Z"),
    });
    await deliveryOf(endpoint, { status: "pending", attempts: 0, occurredAt: new Date("2026-03-03T10:00:00Z") });
    await deliveryOf(endpoint, { status: "delivered", attempts: 1, occurredAt: new Date("2026-03-04T10:00:00Z") });
    const ids = async (query: string) =>
      ((await list(apiKey, endpoint.id, query)).body.items as { id: string }[]).map((item) => item.id);
    expect(await ids("?onlyFailed=true")).toEqual([retrying.id, failed.id]);
    expect(await ids("?onlyFailed=false")).toHaveLength(4);
    expect(await ids("?startDate=2026-03-02&endDate=2026-03-03")).toHaveLength(2);
    expect(await ids("?onlyFailed=true&endDate=2026-03-01")).toEqual([failed.id]);
    const reversed = await list(apiKey, endpoint.id, "?startDate=2026-03-05&endDate=2026-03-01");
    expect(reversed.status).toBe(422);
    expect(Object.keys(reversed.body.details ?? {})).toEqual(["startDate"]);
    expect((await list(apiKey, endpoint.id, "?onlyFailed=yes")).status).toBe(422);
  });

  it("404 for another platform's endpoint; 403 without webhooks:read", async () => {
    const { account, apiKey } = await platformWithKey();
    const other = await platformWithKey();
    const theirs = await endpointOf(other.apiKey);
    await deliveryOf(theirs);
    expect((await list(apiKey, theirs.id)).status).toBe(404);
    const none = await apiKeyFor(account.id, { permissions: ["transactions:read"] });
    expect((await list(none.secret, theirs.id)).status).toBe(403);
  });
});

describe("POST /v1/webhook_endpoints/{id}/events/{eventId}/retry", () => {
  const retryOf = (apiKey: string, id: string, eventId: string) =>
    call(retry, {
      method: "POST",
      apiKey,
      params: { id, eventId },
      path: `/v1/webhook_endpoints/${id}/events/${eventId}/retry`,
    });

  it("200: the delivery queued now (pending), attempts kept", async () => {
    const { apiKey } = await platformWithKey();
    const endpoint = await endpointOf(apiKey);
    const failed = await deliveryOf(endpoint, {
      status: "failed",
      attempts: 9,
      lastError: "HTTP 500",
      nextAttemptAt: null,
    });
    const before = Date.now();
    const response = await retryOf(apiKey, endpoint.id, failed.id);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: failed.id, status: "pending", attempts: 9 });
    expect(new Date(response.body.nextAttemptAt ?? "").getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(response.body.nextAttemptAt ?? "").getTime()).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it("404 for another platform's delivery (under either endpoint), or one of another endpoint; 409 when the endpoint is disabled; 403 without webhooks:write", async () => {
    const { account, apiKey } = await platformWithKey();
    const other = await platformWithKey();
    const mine = await endpointOf(apiKey);
    const second = await endpointOf(apiKey);
    const theirs = await endpointOf(other.apiKey);
    const theirDelivery = await deliveryOf(theirs, { status: "failed", nextAttemptAt: null });
    const myDelivery = await deliveryOf(mine, { status: "failed", nextAttemptAt: null });
    expect((await retryOf(apiKey, theirs.id, theirDelivery.id)).status).toBe(404);
    expect((await retryOf(apiKey, mine.id, theirDelivery.id)).status).toBe(404);
    expect((await retryOf(apiKey, second.id, myDelivery.id)).status).toBe(404);
    expect((await db().webhookDelivery.findUniqueOrThrow({ where: { id: theirDelivery.id } })).status).toBe("failed");
    await db().webhookEndpoint.update({ where: { id: mine.id }, data: { enabled: false } });
    const disabled = await retryOf(apiKey, mine.id, myDelivery.id);
    expect(disabled.status).toBe(409);
    const reader = await apiKeyFor(account.id, { permissions: ["webhooks:read"] });
    expect((await retryOf(reader.secret, mine.id, myDelivery.id)).status).toBe(403);
  });
});

describe("POST /v1/webhook_endpoints/{id}/test", () => {
  const testOf = (options: Parameters<typeof call>[1] & { id: string }) =>
    call(sendTest, {
      method: "POST",
      params: { id: options.id },
      path: `/v1/webhook_endpoints/${options.id}/test`,
      ...options,
    });

  it("201: a webhook.test delivery for this endpoint only, due now, even when it did not subscribe to webhook.test", async () => {
    const { apiKey } = await platformWithKey();
    const endpoint = await endpointOf(apiKey);
    const bystander = await endpointOf(apiKey);
    const response = await testOf({ apiKey, id: endpoint.id });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      ownerId: endpoint.ownerId,
      webhookEndpointId: endpoint.id,
      eventType: "webhook.test",
      eventData: { webhookEndpointId: endpoint.id, accountId: endpoint.ownerId },
      status: "pending",
      attempts: 0,
    });
    expect(await db().webhookDelivery.count({ where: { webhookEndpointId: bystander.id } })).toBe(0);
    expect((await list(apiKey, endpoint.id)).body.items.map((item) => item.id)).toEqual([response.body.id]);
  });

  it("404 for another platform's endpoint; 409 for a disabled one; no step-up needed from a session", async () => {
    const { account, session } = await signedInEmployee({ totp: true });
    const key = await apiKeyFor(account.id);
    const mine = await endpointOf(key.secret);
    const other = await platformWithKey();
    const theirs = await endpointOf(other.apiKey);
    expect((await testOf({ session, id: mine.id })).status).toBe(201);
    expect((await testOf({ session, id: theirs.id })).status).toBe(404);
    expect(await db().webhookDelivery.count({ where: { webhookEndpointId: theirs.id } })).toBe(0);
    await db().webhookEndpoint.update({ where: { id: mine.id }, data: { enabled: false } });
    expect((await testOf({ session, id: mine.id })).status).toBe(409);
  });
});
