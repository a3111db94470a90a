import { describe, expect, it } from "vitest";
import { GET as list } from "@/app/v1/api_keys/route";
import { KEY_PERMISSIONS } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import { apiKeyFor, signedInEmployee } from "@/lib/testing/factories";
import { lastAuditEvent } from "@/lib/testing/audit";
import { call, expectError } from "@/lib/testing/http";
import { DELETE, POST } from "./route";

const update = (key: string, options: Parameters<typeof call>[1]) =>
  call(POST, { method: "POST", params: { key }, ...options });
const revoke = (key: string, options: Parameters<typeof call>[1]) =>
  call(DELETE, { method: "DELETE", params: { key }, ...options });

describe("POST /v1/api_keys/{key}", () => {
  it("200 replaces the allowlist, which takes effect at once", async () => {
    const { account } = await signedInEmployee();
    const admin = await apiKeyFor(account.id);
    const target = await apiKeyFor(account.id);
    const response = await update(target.id, { apiKey: admin.secret, body: { cidrAllowlist: ["192.0.2.0/24"] } });
    expect(response.status).toBe(200);
    expect(response.body.cidrAllowlist).toEqual(["192.0.2.0/24"]);
    expect((await call(list, { apiKey: target.secret, ip: "198.51.100.1" })).status).toBe(403);
    const cleared = await update(target.id, { apiKey: admin.secret, body: { cidrAllowlist: [] } });
    expect(cleared.body.cidrAllowlist).toEqual([]);
    expect((await call(list, { apiKey: target.secret, ip: "198.51.100.1" })).status).toBe(200);
  });

  it("422 naming the bad entry, or the missing list", async () => {
    const { account } = await signedInEmployee();
    const admin = await apiKeyFor(account.id);
    const bad = await update(admin.id, { apiKey: admin.secret, body: { cidrAllowlist: ["::/0", "300.1.1.1/8"] } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.details ?? {})).toEqual(["cidrAllowlist.1"]);
    const missing = await update(admin.id, { apiKey: admin.secret, body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.details).toEqual({ body: "name what to change: cidrAllowlist, rateLimit or both" });
  });

  it("404 for an unknown, malformed or other platform's key", async () => {
    const { account } = await signedInEmployee();
    const admin = await apiKeyFor(account.id);
    const other = await signedInEmployee();
    const theirs = await apiKeyFor(other.account.id);
    for (const id of ["key_doesnotexist", "../etc/passwd", theirs.id]) {
      const response = await update(id, { apiKey: admin.secret, body: { cidrAllowlist: [] } });
      expectError(response, 404, "err_not_found");
    }
  });

  it("409 for a revoked key", async () => {
    const { account } = await signedInEmployee();
    const admin = await apiKeyFor(account.id);
    const target = await apiKeyFor(account.id);
    await revoke(target.id, { apiKey: admin.secret });
    const response = await update(target.id, { apiKey: admin.secret, body: { cidrAllowlist: [] } });
    expect(response.status).toBe(409);
  });

  it("from a session: 400 without a code, 200 with a fresh one", async () => {
    const { account, session, authenticator } = await signedInEmployee({ totp: true });
    const target = await apiKeyFor(account.id);
    const body = { cidrAllowlist: ["10.0.0.0/8"] };
    expect((await update(target.id, { session, body })).body.error_code).toBe("err_otp_required");
    expect((await update(target.id, { session, body, totp: authenticator!.nextCode() })).status).toBe(200);
  });
});

describe("DELETE /v1/api_keys/{key}", () => {
  it("200 revokes: the key stops authenticating; revoking again is a no-op", async () => {
    const { account } = await signedInEmployee();
    const admin = await apiKeyFor(account.id);
    const target = await apiKeyFor(account.id);
    const response = await revoke(target.id, { apiKey: admin.secret });
    expect(response.status).toBe(200);
    expect(response.body.revokedAt).toEqual(expect.any(String));
    expect((await call(list, { apiKey: target.secret })).status).toBe(401);
    const again = await revoke(target.id, { apiKey: admin.secret });
    expect(again.status).toBe(200);
    expect(again.body.revokedAt).toBe(response.body.revokedAt);
  });

  it("a key can revoke itself, and is refused right after", async () => {
    const { account } = await signedInEmployee();
    const key = await apiKeyFor(account.id);
    expect((await revoke(key.id, { apiKey: key.secret })).status).toBe(200);
    expect((await revoke(key.id, { apiKey: key.secret })).status).toBe(401);
  });

  it("from a session: needs a current code", async () => {
    const { account, session, authenticator } = await signedInEmployee({ totp: true });
    const target = await apiKeyFor(account.id);
    expect((await revoke(target.id, { session, totp: authenticator!.wrongCode() })).body.error_code).toBe(
      "err_otp_invalid",
    );
    expect((await revoke(target.id, { session, totp: authenticator!.nextCode() })).status).toBe(200);
  });

  it("404 for another platform's key, which stays usable", async () => {
    const { account } = await signedInEmployee();
    const admin = await apiKeyFor(account.id);
    const other = await signedInEmployee();
    const theirs = await apiKeyFor(other.account.id);
    expect((await revoke(theirs.id, { apiKey: admin.secret })).status).toBe(404);
    expect((await call(list, { apiKey: theirs.secret })).status).toBe(200);
  });

  it("403 naming the permission when a key holding only api_keys:write revokes a full-permission key, which stays usable", async () => {
    const { account } = await signedInEmployee();
    const weak = await apiKeyFor(account.id, { permissions: ["api_keys:write"] });
    const strong = await apiKeyFor(account.id, { permissions: KEY_PERMISSIONS });
    const response = await revoke(strong.id, { apiKey: weak.secret });
    expectError(response, 403, "err_forbidden");
    expect(KEY_PERMISSIONS).toContain(response.body.details?.permission);
    expect(response.body.details?.permission).not.toBe("api_keys:write");
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: strong.id } })).revokedAt).toBeNull();
    expect((await call(list, { apiKey: strong.secret })).status).toBe(200);
  });

  it("a key revokes a key within its own permissions; an employee with api_keys:write revokes any key", async () => {
    const { account, session, authenticator } = await signedInEmployee({ totp: true, role: "developer" });
    const weak = await apiKeyFor(account.id, { permissions: ["api_keys:read", "api_keys:write"] });
    const weaker = await apiKeyFor(account.id, { permissions: ["api_keys:read"] });
    expect((await revoke(weaker.id, { apiKey: weak.secret })).status).toBe(200);
    const strong = await apiKeyFor(account.id, { permissions: KEY_PERMISSIONS });
    expect((await revoke(strong.id, { session, totp: authenticator!.nextCode() })).status).toBe(200);
  });

  it("the audit record says what changed: revokedAt before and after, and the key's permissions", async () => {
    const { account } = await signedInEmployee();
    const admin = await apiKeyFor(account.id);
    const target = await apiKeyFor(account.id, { permissions: ["api_keys:read"] });
    const response = await revoke(target.id, { apiKey: admin.secret });
    const event = await lastAuditEvent({ action: "api_key.revoke", targetId: target.id });
    expect(event.details).toEqual({
      before: { revokedAt: null },
      after: { revokedAt: response.body.revokedAt },
      permissions: ["api_keys:read"],
    });
  });
});

describe("POST /v1/api_keys/{key}: audit", () => {
  it("the audit record holds the allowlist before and after", async () => {
    const { account } = await signedInEmployee();
    const admin = await apiKeyFor(account.id);
    const target = await apiKeyFor(account.id, { permissions: ["api_keys:read"], cidrAllowlist: ["10.0.0.0/8"] });
    expect((await update(target.id, { apiKey: admin.secret, body: { cidrAllowlist: ["192.0.2.0/24"] } })).status).toBe(
      200,
    );
    const event = await lastAuditEvent({ action: "api_key.update_allowlist", targetId: target.id });
    expect(event.details).toEqual({
      before: { cidrAllowlist: ["10.0.0.0/8"] },
      after: { cidrAllowlist: ["192.0.2.0/24"] },
      permissions: ["api_keys:read"],
    });
  });
});
