import { describe, expect, it } from "vitest";
import { POST as createDelegatedUser } from "@/app/v1/delegated_users/route";
import { POST as issueApiKey } from "@/app/v1/api_keys/route";
import { db } from "@/lib/db";
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from "@/lib/http/idempotency";
import { inDays, platformWithKey } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";

// Idempotency-Key on POST (docs/api.md, Idempotency).
const create = (apiKey: string, externalId: string, key?: string, headers: Record<string, string> = {}) =>
  call(createDelegatedUser, {
    method: "POST",
    path: "/v1/delegated_users",
    apiKey,
    body: { externalId },
    headers: { ...(key === undefined ? {} : { "idempotency-key": key }), ...headers },
  });

const usersOf = (accountId: string) => db().delegatedUser.count({ where: { accountId } });

describe("Idempotency-Key", () => {
  it("a repeat gets the first response again, marked Idempotent-Replayed, and nothing is created twice", async () => {
    const { apiKey, account } = await platformWithKey();
    const first = await create(apiKey, "customer-1", "retry-1");
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await create(apiKey, "customer-1", "retry-1");
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(await usersOf(account.id)).toBe(1);
  });

  it("a refusal the handler's transaction meets at COMMIT (a duplicate externalId, found by the deferred insert on PostgreSQL) is kept for repeats and audited once", async () => {
    const { apiKey, account, key } = await platformWithKey();
    expect((await create(apiKey, "customer-1")).status).toBe(201);
    const refused = await create(apiKey, "customer-1", "retry-409");
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error_code: "err_conflict", details: { externalId: "already exists" } });
    const again = await create(apiKey, "customer-1", "retry-409");
    expect(again.status).toBe(409);
    expect(again.body).toEqual(refused.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await usersOf(account.id)).toBe(1);
    const records = await db().auditEvent.findMany({
      where: { actorId: key.id, action: "delegated_user.create" },
      orderBy: [{ at: "asc" }, { id: "asc" }],
    });
    expect(records.map((record) => record.status)).toEqual([201, 409, 409]);
  });

  it("without a key, a repeat is a new request (409 for the duplicate externalId)", async () => {
    const { apiKey } = await platformWithKey();
    expect((await create(apiKey, "customer-1")).status).toBe(201);
    expect((await create(apiKey, "customer-1")).status).toBe(409);
  });

  it("422 err_idempotency_mismatch for a different body under the same key; the first is untouched", async () => {
    const { apiKey, account } = await platformWithKey();
    expect((await create(apiKey, "customer-1", "k")).status).toBe(201);
    const other = await create(apiKey, "customer-2", "k");
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ error_code: "err_idempotency_mismatch", http_code: 422 });
    expect(await usersOf(account.id)).toBe(1);
  });

  it("the same body for another account (Service-Account-Id) is a different request: 422", async () => {
    const { apiKey, account } = await platformWithKey();
    const sub = await db().account.create({
      data: { id: `acct_sub${Date.now()}`, platformId: account.id, parentId: account.id, name: "Sub" },
    });
    expect((await create(apiKey, "customer-1", "k")).status).toBe(201);
    expect((await create(apiKey, "customer-1", "k", { "service-account-id": sub.id })).status).toBe(422);
  });

  it("keys belong to their credential: another key may use the same one", async () => {
    const one = await platformWithKey();
    const two = await platformWithKey();
    expect((await create(one.apiKey, "customer-1", "shared")).status).toBe(201);
    const other = await create(two.apiKey, "customer-1", "shared");
    expect(other.status).toBe(201);
    expect(other.headers.get("idempotent-replayed")).toBeNull();
    expect(await usersOf(two.account.id)).toBe(1);
  });

  it("409 err_conflict while the first request with the key is still running; a claim abandoned for 5 minutes is taken over", async () => {
    const { apiKey, key, account } = await platformWithKey();
    const fingerprintless = { credential: `api_key:${key.id}`, key: "busy", fingerprint: "", expiresAt: inDays(1) };
    // A first request still running: its fingerprint must match, so take it from a real claim.
    expect((await create(apiKey, "customer-1", "probe")).status).toBe(201);
    const { fingerprint } = await db().idempotencyKey.findUniqueOrThrow({
      where: { credential_key: { credential: fingerprintless.credential, key: "probe" } },
    });
    await db().idempotencyKey.create({ data: { ...fingerprintless, fingerprint, startedAt: new Date() } });
    const running = await create(apiKey, "customer-1", "busy");
    expectError(running, 409, "err_conflict");
    await db().idempotencyKey.update({
      where: { credential_key: { credential: fingerprintless.credential, key: "busy" } },
      data: { startedAt: new Date(Date.now() - 6 * 60_000) },
    });
    // Taken over: runs for real (and meets the user the probe created).
    expect((await create(apiKey, "customer-1", "busy")).status).toBe(409);
    expect((await create(apiKey, "customer-1", "busy")).headers.get("idempotent-replayed")).toBe("true");
    expect(await usersOf(account.id)).toBe(1);
  });

  it("a request so slow that its claim was taken over settles nothing: the takeover's response is the one kept", async () => {
    const claimOf = async (now: Date) => {
      const claimed = await claimIdempotencyKey({ credential: "api_key:key_slow", key: "slow", fingerprint: "f" }, now);
      if (!("claim" in claimed)) throw new Error("expected to run");
      return claimed.claim;
    };
    const row = () =>
      db().idempotencyKey.findUniqueOrThrow({
        where: { credential_key: { credential: "api_key:key_slow", key: "slow" } },
      });
    const start = new Date();
    const original = await claimOf(start);
    // Six minutes on, with no response kept, a retry takes the key over as abandoned.
    const takeover = await claimOf(new Date(start.getTime() + 6 * 60_000));
    expect(takeover.startedAt.getTime()).toBeGreaterThan(original.startedAt.getTime());
    // The original finally answers: neither its response nor its release touches the takeover's claim.
    await completeIdempotencyKey(original, { status: 201, body: { from: "original" } });
    expect(await row()).toMatchObject({ status: null, body: null });
    await releaseIdempotencyKey(original);
    expect(await row()).toMatchObject({ status: null });
    await completeIdempotencyKey(takeover, { status: 201, body: { from: "takeover" } });
    const repeat = await claimIdempotencyKey(
      { credential: "api_key:key_slow", key: "slow", fingerprint: "f" },
      new Date(start.getTime() + 7 * 60_000),
    );
    expect(repeat).toEqual({ kept: { status: 201, body: { from: "takeover" } } });
  });

  it("concurrent duplicates: exactly one runs; the others answer 409 or replay its response", async () => {
    const { apiKey, account } = await platformWithKey();
    const responses = await Promise.all(Array.from({ length: 8 }, () => create(apiKey, "customer-1", "burst")));
    const ran = responses.filter((response) => response.status === 201 && !response.headers.get("idempotent-replayed"));
    expect(ran).toHaveLength(1);
    for (const response of responses) {
      if (response === ran[0]) continue;
      if (response.status === 201) expect(response.body).toEqual(ran[0]!.body);
      else expect(response.body.error_code).toBe("err_conflict");
    }
    expect(await usersOf(account.id)).toBe(1);
  });

  it("a refusal before the handler (validation) is not kept: the corrected retry with the same key runs", async () => {
    const { apiKey, account } = await platformWithKey();
    const invalid = await call(createDelegatedUser, {
      method: "POST",
      apiKey,
      body: { externalId: "" },
      headers: { "idempotency-key": "fix-me" },
    });
    expect(invalid.status).toBe(422);
    expect(await db().idempotencyKey.count({ where: { key: "fix-me" } })).toBe(0);
    // Same key, same (invalid) body again: validated again, not replayed.
    const again = await call(createDelegatedUser, {
      method: "POST",
      apiKey,
      body: { externalId: "" },
      headers: { "idempotency-key": "fix-me" },
    });
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(await usersOf(account.id)).toBe(0);
  });

  it("400 for a key that is empty, too long or not printable", async () => {
    const { apiKey } = await platformWithKey();
    for (const bad of ["", "x".repeat(256), "tab\there"]) {
      const response = await create(apiKey, "customer-1", bad);
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect(response.body.error_code).toBe("err_bad_request");
    }
    expect((await create(apiKey, "customer-1", "x".repeat(255))).status).toBe(201);
  });

  it("a response holding a secret (a new key's) is not kept: the repeat answers 409 err_idempotency_secret and issues nothing", async () => {
    const { apiKey, account } = await platformWithKey({ permissions: ["api_keys:read", "api_keys:write"] });
    const body = { name: "CI", expiresAt: inDays(30) };
    const issue = () => call(issueApiKey, { method: "POST", apiKey, body, headers: { "idempotency-key": "issue-1" } });
    const first = await issue();
    expect(first.status).toBe(201);
    const rows = await db().idempotencyKey.findMany({ where: { key: "issue-1" } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 201, body: null, heldSecret: true });
    const again = await issue();
    expectError(again, 409, "err_idempotency_secret");
    expect(JSON.stringify(again.body)).not.toContain(first.body.secret);
    expect(await db().apiKey.count({ where: { accountId: account.id } })).toBe(2);
  });

  it("a key older than 24 hours is forgotten: the same key starts a new request", async () => {
    const { apiKey, key } = await platformWithKey();
    expect((await create(apiKey, "customer-1", "old")).status).toBe(201);
    await db().idempotencyKey.update({
      where: { credential_key: { credential: `api_key:${key.id}`, key: "old" } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const later = await create(apiKey, "customer-1", "old");
    expect(later.status).toBe(409); // ran again: the externalId now exists
    expect(later.headers.get("idempotent-replayed")).toBeNull();
  });
});
