import { describe, expect, it } from "vitest";
import { POST as issueKey } from "@/app/v1/api_keys/route";
import { DELETE as revokeKey } from "@/app/v1/api_keys/[key]/route";
import { GET as listKeys } from "@/app/v1/api_keys/route";
import { POST as signIn } from "@/app/v1/sessions/route";
import { db } from "@/lib/db";
import {
  apiKeyFor,
  inDays,
  nextMillisecond,
  PASSWORD,
  platformWithKey,
  signedInEmployee,
} from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { GET } from "./route";

const events = (apiKey: string, query = "") => call(GET, { apiKey, path: `/v1/audit_events${query}` });

describe("GET /v1/audit_events", () => {
  it("200: a mutation by key is recorded with when, who, what, from where and the outcome", async () => {
    const { apiKey, key, account } = await platformWithKey();
    const issued = await call(issueKey, {
      method: "POST",
      apiKey,
      ip: "192.0.2.44",
      body: { expiresAt: inDays(10) },
      headers: { "x-request-id": "audit-test-1" },
    });
    expect(issued.status).toBe(201);
    const response = await events(apiKey);
    expect(response.status).toBe(200);
    const [event] = response.body.items;
    expect(event).toMatchObject({
      action: "api_key.issue",
      actorType: "api_key",
      actorId: key.id,
      accountId: account.id,
      targetId: issued.body.id,
      ip: "192.0.2.44",
      outcome: "success",
      status: 201,
      requestId: expect.stringMatching(/^req_[0-9a-f]{24}$/),
      clientRequestId: "audit-test-1",
    });
    expect(issued.headers.get("x-request-id")).toBe("audit-test-1");
    expect(Date.now() - new Date(event?.at ?? "").getTime()).toBeLessThan(60_000);
    expect(event?.at).toMatch(/Z$/);
    expect(JSON.stringify(response.body)).not.toContain(issued.body.secret);
  });

  it("the requestId is always the server's own: a client cannot pass off another request's id as this one's", async () => {
    const { apiKey } = await platformWithKey();
    const first = await call(issueKey, { method: "POST", apiKey, body: { expiresAt: inDays(10) } });
    const firstEvent = (await events(apiKey, "?action=api_key.issue")).body.items[0]!;
    expect(firstEvent).toMatchObject({ requestId: first.headers.get("x-request-id"), clientRequestId: null });
    await nextMillisecond();
    // The second request claims the first one's id.
    const second = await call(issueKey, {
      method: "POST",
      apiKey,
      body: { expiresAt: inDays(10) },
      headers: { "x-request-id": firstEvent.requestId },
    });
    expect(second.headers.get("x-request-id")).toBe(firstEvent.requestId);
    const [secondEvent] = (await events(apiKey, "?action=api_key.issue")).body.items;
    expect(secondEvent).toMatchObject({ targetId: second.body.id, clientRequestId: firstEvent.requestId });
    expect(secondEvent!.requestId).toMatch(/^req_[0-9a-f]{24}$/);
    expect(secondEvent!.requestId).not.toBe(firstEvent.requestId);
  });

  it("records refused keys (401 revoked, 403 outside the allowlist) against the key", async () => {
    const { apiKey, key: admin } = await platformWithKey();
    const other = await call(issueKey, {
      method: "POST",
      apiKey,
      body: { expiresAt: inDays(10), cidrAllowlist: ["192.0.2.0/24"] },
    });
    expect((await call(listKeys, { apiKey: other.body.secret, ip: "198.51.100.1" })).status).toBe(403);
    await call(revokeKey, { method: "DELETE", apiKey, params: { key: other.body.id } });
    await nextMillisecond();
    expect((await call(listKeys, { apiKey: other.body.secret, ip: "192.0.2.1" })).status).toBe(401);
    const { body } = await events(apiKey, `?actorId=${other.body.id}`);
    expect(body.items.map((e: { outcome: string; status: number }) => [e.outcome, e.status])).toEqual([
      ["denied", 401],
      ["denied", 403],
    ]);
    const revocation = (await events(apiKey, "?action=api_key.revoke")).body.items[0];
    expect(revocation).toMatchObject({ actorId: admin.id, targetId: other.body.id, outcome: "success" });
  });

  it("records failed and successful sign-ins of the platform's employees, without the password", async () => {
    const { email, account } = await signedInEmployee();
    const apiKey = (await apiKeyFor(account.id)).secret;
    const wrongPassword = "this is not the password";
    expect((await call(signIn, { method: "POST", body: { email, password: wrongPassword } })).status).toBe(401);
    await nextMillisecond();
    expect((await call(signIn, { method: "POST", body: { email, password: PASSWORD } })).status).toBe(200);
    const { body } = await events(apiKey, "?action=session.create");
    expect(body.items.map((e: { outcome: string }) => e.outcome)).toEqual(["success", "denied"]);
    expect(body.items[0]).toMatchObject({ actorType: "employee", status: 200 });
    expect(body.items[1]?.details).toEqual({ email });
    const raw = JSON.stringify(await db().auditEvent.findMany());
    expect(raw).not.toContain(wrongPassword);
    expect(raw).not.toContain(PASSWORD);
  });

  it("filters by action, actor and date range, and pages with a cursor", async () => {
    const { apiKey, key } = await platformWithKey();
    for (let i = 0; i < 5; i++) await call(issueKey, { method: "POST", apiKey, body: { expiresAt: inDays(10) } });
    await nextMillisecond();
    await call(issueKey, { method: "POST", apiKey, body: { expiresAt: "yesterday" } });
    const failures = await events(apiKey, `?action=api_key.issue&actorId=${key.id}`);
    expect(failures.body.items).toHaveLength(6);
    const page1 = await events(apiKey, "?action=api_key.issue&limit=4&order=asc");
    expect(page1.body.items).toHaveLength(4);
    const page2 = await events(apiKey, `?action=api_key.issue&limit=4&order=asc&next=${page1.body.next}`);
    expect(page2.body.items).toHaveLength(2);
    expect(page2.body.next).toBeNull();
    expect(page2.body.items.at(-1)?.status).toBe(422);
    // The days the events fell on (two, for a run across midnight UTC), not the day the test ends on.
    const days = failures.body.items.map((event) => event.at.slice(0, 10)).sort();
    expect((await events(apiKey, `?startDate=${days[0]}&endDate=${days.at(-1)}`)).body.items).toHaveLength(6);
    expect((await events(apiKey, "?endDate=2020-01-01")).body.items).toHaveLength(0);
  });

  it("shows only the caller's platform", async () => {
    const mine = await platformWithKey();
    const theirs = await platformWithKey();
    await call(issueKey, { method: "POST", apiKey: theirs.apiKey, body: { expiresAt: inDays(10) } });
    expect((await events(mine.apiKey)).body.items).toEqual([]);
  });

  it("422 for bad filters", async () => {
    const { apiKey } = await platformWithKey();
    const bad = await events(apiKey, "?limit=0&startDate=yesterday");
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.details ?? {}).sort()).toEqual(["limit", "startDate"]);
    expect((await events(apiKey, "?startDate=2026-02-01&endDate=2026-01-01")).body.details).toHaveProperty("startDate");
  });

  it("is append-only: the database refuses edits and deletions", async () => {
    const { apiKey } = await platformWithKey();
    await call(issueKey, { method: "POST", apiKey, body: { expiresAt: inDays(10) } });
    await expect(db().auditEvent.updateMany({ data: { outcome: "success" } })).rejects.toThrow(/append-only/);
    await expect(db().auditEvent.deleteMany({})).rejects.toThrow(/append-only/);
  });
});
