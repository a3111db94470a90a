import { afterEach, describe, expect, it, vi } from "vitest";
import { GET as list } from "@/app/v1/api_keys/route";
import { DEFAULT_KEY_PERMISSIONS } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import { apiKeyFor, inDays, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { lastAuditEvent } from "@/lib/testing/audit";
import { POST } from "./route";

const roll = (key: string, options: Parameters<typeof call>[1]) =>
  call(POST, { method: "POST", params: { key }, ...options });
const works = async (secret: string) => (await call(list, { apiKey: secret })).status === 200;

describe("POST /v1/api_keys/{key}/roll", () => {
  afterEach(() => vi.useRealTimers());

  it("201: a new secret with the old key's name, permissions and allowlist; both work during the overlap, then only the new one", async () => {
    const { account, employee, session, authenticator } = await signedInEmployee({ totp: true });
    const old = await apiKeyFor(account.id, {
      name: "Payouts",
      cidrAllowlist: ["127.0.0.0/8"],
      permissions: ["api_keys:read", "transactions:read"],
    });
    const response = await roll(old.id, {
      session,
      totp: authenticator!.nextCode(),
      body: { expiresAt: inDays(90), overlapSeconds: 600 },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: "Payouts",
      cidrAllowlist: ["127.0.0.0/8"],
      permissions: ["api_keys:read", "transactions:read"],
      createdBy: { type: "employee", id: employee.id },
      secret: expect.stringMatching(/^svc_/),
    });
    expect(response.body.id).not.toBe(old.id);
    expect(await works(old.secret)).toBe(true);
    expect(await works(response.body.secret)).toBe(true);
    const oldRow = await db().apiKey.findUniqueOrThrow({ where: { id: old.id } });
    // new Date() reads the real clock (the authenticator shifts Date.now only).
    const now = new Date().getTime();
    expect(Math.abs(oldRow.expiresAt.getTime() - (now + 600_000))).toBeLessThan(10_000);

    vi.useFakeTimers({ toFake: ["Date"], now: now + 601_000 });
    expect(await works(old.secret)).toBe(false);
    expect(await works(response.body.secret)).toBe(true);
  });

  it("without an overlap the old secret stops at once; a key may roll a key it covers", async () => {
    const { account } = await signedInEmployee();
    const caller = await apiKeyFor(account.id);
    const old = await apiKeyFor(account.id, { permissions: ["api_keys:read"] });
    const response = await roll(old.id, { apiKey: caller.secret, body: { expiresAt: inDays(30) } });
    expect(response.status).toBe(201);
    expect(response.body.createdBy).toEqual({ type: "api_key", id: caller.id });
    expect(await works(old.secret)).toBe(false);
    expect(await works(response.body.secret)).toBe(true);
  });

  it("never moves an expiry later: an overlap past the old key's own end keeps that end", async () => {
    const { account } = await signedInEmployee();
    const caller = await apiKeyFor(account.id);
    const old = await apiKeyFor(account.id, { expiresAt: new Date(Date.now() + 60_000).toISOString() });
    const before = (await db().apiKey.findUniqueOrThrow({ where: { id: old.id } })).expiresAt;
    expect(
      (await roll(old.id, { apiKey: caller.secret, body: { expiresAt: inDays(30), overlapSeconds: 86_400 } })).status,
    ).toBe(201);
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: old.id } })).expiresAt).toEqual(before);
  });

  it("403 naming the permission when the caller lacks one the key holds (no escalation by rolling)", async () => {
    const { account } = await signedInEmployee();
    const weak = await apiKeyFor(account.id, { permissions: ["api_keys:read", "api_keys:write"] });
    const strong = await apiKeyFor(account.id, { permissions: DEFAULT_KEY_PERMISSIONS });
    const response = await roll(strong.id, { apiKey: weak.secret, body: { expiresAt: inDays(30) } });
    expectError(response, 403, "err_forbidden");
    expect(DEFAULT_KEY_PERMISSIONS).toContain(response.body.details?.permission);
    expect(await works(strong.secret)).toBe(true);
  });

  it("409 for a revoked key; 422 for an overlap out of range; 400 without a code from a session", async () => {
    const { account, session } = await signedInEmployee({ totp: true });
    const caller = await apiKeyFor(account.id);
    const revoked = await apiKeyFor(account.id);
    await db().apiKey.update({ where: { id: revoked.id }, data: { revokedAt: new Date() } });
    expect((await roll(revoked.id, { apiKey: caller.secret, body: { expiresAt: inDays(30) } })).status).toBe(409);
    for (const overlapSeconds of [-1, 86_401, 1.5, "60"]) {
      const response = await roll(caller.id, {
        apiKey: caller.secret,
        body: { expiresAt: inDays(30), overlapSeconds },
      });
      expect(response.status).toBe(422);
      expect(Object.keys(response.body.details ?? {})).toEqual(["overlapSeconds"]);
    }
    const noCode = await roll(caller.id, { session, body: { expiresAt: inDays(30) } });
    expectError(noCode, 400, "err_otp_required");
    expect(await works(caller.secret)).toBe(true);
  });

  it("five parallel rolls of one key: exactly one 201, the rest 409, and exactly one live successor", async () => {
    const { account } = await signedInEmployee();
    const caller = await apiKeyFor(account.id);
    const old = await apiKeyFor(account.id, { permissions: ["api_keys:read"] });
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        roll(old.id, { apiKey: caller.secret, body: { expiresAt: inDays(30), overlapSeconds: 600 } }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    for (const refused of responses.filter((response) => response.status === 409))
      expect(refused.body.error_code).toBe("err_conflict");
    const made = responses.find((response) => response.status === 201)!;
    const successors = await db().apiKey.findMany({
      where: { accountId: account.id, id: { notIn: [caller.id, old.id] } },
    });
    expect(successors.map((row) => row.id)).toEqual([made.body.id]);
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: old.id } })).rolledToId).toBe(made.body.id);
    expect(await works(made.body.secret)).toBe(true);
  });

  it("409 for a second roll during the overlap, naming the successor; the successor itself may be rolled", async () => {
    const { account } = await signedInEmployee();
    const caller = await apiKeyFor(account.id);
    const old = await apiKeyFor(account.id, { permissions: ["api_keys:read"] });
    const first = await roll(old.id, { apiKey: caller.secret, body: { expiresAt: inDays(30), overlapSeconds: 600 } });
    expect(first.status).toBe(201);
    const second = await roll(old.id, { apiKey: caller.secret, body: { expiresAt: inDays(30), overlapSeconds: 600 } });
    expectError(second, 409, "err_conflict");
    expect(second.body.message).toContain(first.body.id);
    expect(await db().apiKey.count({ where: { accountId: account.id } })).toBe(3);
    expect((await roll(first.body.id, { apiKey: caller.secret, body: { expiresAt: inDays(30) } })).status).toBe(201);
  });

  it("the audit record names the successor and the old key's expiry before and after, never a secret", async () => {
    const { account } = await signedInEmployee();
    const caller = await apiKeyFor(account.id);
    const old = await apiKeyFor(account.id, { permissions: ["api_keys:read"], cidrAllowlist: ["10.0.0.0/8"] });
    const before = (await db().apiKey.findUniqueOrThrow({ where: { id: old.id } })).expiresAt;
    const response = await roll(old.id, {
      apiKey: caller.secret,
      body: { expiresAt: inDays(30), overlapSeconds: 600 },
    });
    expect(response.status).toBe(201);
    const after = (await db().apiKey.findUniqueOrThrow({ where: { id: old.id } })).expiresAt;
    const event = await lastAuditEvent({ action: "api_key.roll", targetId: old.id });
    expect(event.details).toEqual({
      rolledTo: response.body.id,
      before: { expiresAt: before.toISOString() },
      after: { expiresAt: after.toISOString() },
      successor: {
        id: response.body.id,
        expiresAt: response.body.expiresAt,
        permissions: ["api_keys:read"],
        cidrAllowlist: ["10.0.0.0/8"],
      },
    });
    expect(JSON.stringify(event.details)).not.toContain(response.body.secret);
  });
});
