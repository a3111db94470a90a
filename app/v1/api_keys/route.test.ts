import { flushKeyUses } from "@/lib/api-keys/last-use";
import { DEFAULT_KEY_PERMISSIONS, KEY_PERMISSIONS } from "@/lib/auth/permissions";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { databaseProvider, resetEnv } from "@/lib/env";
import { commitElsewhere } from "@/lib/testing/elsewhere";
import { apiKeyFor, inDays, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { unsetEnvAfterEach } from "@/lib/testing/env";
import { lastAuditEvent } from "@/lib/testing/audit";
import { GET, POST } from "./route";

const issue = (options: Parameters<typeof call>[1]) => call(POST, { method: "POST", ...options });

describe("GET /v1/api_keys", () => {
  it("200 by key: every key of the account with its public fields, none of its secret", async () => {
    const { account } = await signedInEmployee();
    const key = await apiKeyFor(account.id, { name: "Payouts", cidrAllowlist: ["10.0.0.0/8"] });
    await apiKeyFor(account.id);
    // Its first use writes lastUsedAt (on PostgreSQL a few seconds later, off the request's path: now).
    await call(GET, {
      apiKey: key.secret,
      ip: "10.1.2.3",
      headers: { "user-agent": "payouts-cron/1.2\u0007 (linux)" },
    });
    await flushKeyUses();
    const response = await call(GET, { apiKey: key.secret, ip: "10.1.2.3" });
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(2);
    const listed = response.body.find((item) => item.id === key.id);
    expect(listed).toEqual({
      id: key.id,
      name: "Payouts",
      prefix: key.secret.slice(0, 12),
      expiresAt: key.expiresAt.toISOString(),
      cidrAllowlist: ["10.0.0.0/8"],
      createdAt: key.createdAt.toISOString(),
      lastUsedAt: expect.any(String),
      // Written with lastUsedAt, by the first use: its control character dropped.
      lastUsedIp: "10.1.2.3",
      lastUsedUserAgent: "payouts-cron/1.2 (linux)",
      revokedAt: null,
      leak: null,
      permissions: [...DEFAULT_KEY_PERMISSIONS],
      rateLimit: null,
      createdBy: null,
    });
    expect(JSON.stringify(response.body)).not.toContain(key.secret);
  });

  it("200 by session, with no TOTP code needed for reading", async () => {
    const { account, session } = await signedInEmployee();
    await apiKeyFor(account.id);
    const response = await call(GET, { session });
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(1);
  });

  it("401 with no credential, a malformed header, an unknown, a revoked or an expired key", async () => {
    const { account } = await signedInEmployee();
    const revoked = await apiKeyFor(account.id);
    await db().apiKey.update({ where: { id: revoked.id }, data: { revokedAt: new Date() } });
    const expired = await apiKeyFor(account.id);
    await db().apiKey.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const cases = [
      await call(GET),
      await call(GET, { headers: { authorization: "Basic abc" } }),
      await call(GET, { apiKey: "svc_unknownunknownunknown" }),
      await call(GET, { apiKey: revoked.secret }),
      await call(GET, { apiKey: expired.secret }),
    ];
    for (const response of cases) {
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ error_code: "err_unauthenticated", http_code: 401 });
    }
  });

  it("a key revoked by another instance (another connection) is refused on the next request, after reads were kept", async () => {
    const { account } = await signedInEmployee();
    const key = await apiKeyFor(account.id);
    expect((await call(GET, { apiKey: key.secret })).status).toBe(200);
    expect((await call(GET, { apiKey: key.secret })).status).toBe(200);
    const revokedAt = databaseProvider() === "sqlite" ? new Date().toISOString().replace("Z", "+00:00") : new Date();
    await commitElsewhere(`UPDATE "ApiKey" SET "revokedAt" = ? WHERE "id" = ?`, [revokedAt, key.id]);
    expectError(await call(GET, { apiKey: key.secret }), 401, "err_unauthenticated");
  });

  it("the list a key polls follows every change on the next request: its own instance's and another's", async () => {
    const { account } = await signedInEmployee();
    const key = await apiKeyFor(account.id);
    const names = async () =>
      ((await call(GET, { apiKey: key.secret })).body as { name: string | null }[]).map((item) => item.name);
    const before = await names();
    expect(await names()).toEqual(before);
    await commitElsewhere(`UPDATE "ApiKey" SET "name" = ? WHERE "id" = ?`, ["renamed elsewhere", key.id]);
    expect(await names()).toEqual(["renamed elsewhere"]);
    await db().apiKey.update({ where: { id: key.id }, data: { name: "renamed here" } });
    expect(await names()).toEqual(["renamed here"]);
  });

  describe("IP allowlist", () => {
    unsetEnvAfterEach("TRUST_PROXY");

    it("403 err_ip_not_allowed outside every range; IPv6 and IPv4-mapped peers match", async () => {
      const { account } = await signedInEmployee();
      const key = await apiKeyFor(account.id, { cidrAllowlist: ["192.0.2.0/24", "2001:db8::/32"] });
      const outside = await call(GET, { apiKey: key.secret, ip: "198.51.100.7" });
      expectError(outside, 403, "err_ip_not_allowed");
      expect((await call(GET, { apiKey: key.secret, ip: "192.0.2.200" })).status).toBe(200);
      expect((await call(GET, { apiKey: key.secret, ip: "::ffff:192.0.2.9" })).status).toBe(200);
      expect((await call(GET, { apiKey: key.secret, ip: "2001:db8:1::5" })).status).toBe(200);
      expect((await call(GET, { apiKey: key.secret, ip: "2001:db9::5" })).status).toBe(403);
    });

    it("a client's own X-Forwarded-For is ignored unless TRUST_PROXY is set", async () => {
      const { account } = await signedInEmployee();
      const key = await apiKeyFor(account.id, { cidrAllowlist: ["192.0.2.0/24"] });
      // server.mjs appends the TCP peer (here 198.51.100.7) after whatever the client sent.
      const spoofed = await call(GET, { apiKey: key.secret, ip: "192.0.2.1, 198.51.100.7" });
      expect(spoofed.status).toBe(403);
      process.env.TRUST_PROXY = "1";
      resetEnv();
      // Behind one trusted proxy (the peer), the address that proxy appended is the caller's.
      expect((await call(GET, { apiKey: key.secret, ip: "192.0.2.1, 198.51.100.7" })).status).toBe(200);
      expect((await call(GET, { apiKey: key.secret, ip: "192.0.2.1, 203.0.113.9, 198.51.100.7" })).status).toBe(403);
    });
  });

  it("lastUsedAt, lastUsedIp and lastUsedUserAgent are written at most once a minute", async () => {
    const { account } = await signedInEmployee();
    const key = await apiKeyFor(account.id);
    // On PostgreSQL the use is written a few seconds later, off the request's path: flushKeyUses writes it now.
    const used = async (ip: string, userAgent: string) => {
      await call(GET, { apiKey: key.secret, ip, headers: { "user-agent": userAgent } });
      await flushKeyUses();
    };
    const lastUse = () =>
      db().apiKey.findUniqueOrThrow({
        where: { id: key.id },
        select: { lastUsedAt: true, lastUsedIp: true, lastUsedUserAgent: true },
      });
    await used("192.0.2.1", "first/1.0");
    const first = await lastUse();
    expect(first).toEqual({ lastUsedAt: expect.any(Date), lastUsedIp: "192.0.2.1", lastUsedUserAgent: "first/1.0" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await used("192.0.2.2", "second/2.0");
    expect(await lastUse()).toEqual(first);
    await db().apiKey.update({ where: { id: key.id }, data: { lastUsedAt: new Date(Date.now() - 61_000) } });
    await used("192.0.2.3", `third/3.0 ${"x".repeat(400)}`);
    const later = await lastUse();
    expect(Date.now() - later.lastUsedAt!.getTime()).toBeLessThan(5_000);
    expect(later.lastUsedIp).toBe("192.0.2.3");
    expect(later.lastUsedUserAgent).toHaveLength(256);
    expect(later.lastUsedUserAgent!.startsWith("third/3.0 xxx")).toBe(true);
  });

  it("lists only the caller's account's keys", async () => {
    const mine = await signedInEmployee();
    const theirs = await signedInEmployee();
    await apiKeyFor(theirs.account.id);
    const key = await apiKeyFor(mine.account.id);
    const response = await call(GET, { apiKey: key.secret });
    expect(response.body.map((item) => item.id)).toEqual([key.id]);
  });
});

describe("POST /v1/api_keys", () => {
  it("201 by key, no TOTP code needed: the secret once, only its hash stored", async () => {
    const { account } = await signedInEmployee();
    const caller = await apiKeyFor(account.id);
    const response = await issue({
      apiKey: caller.secret,
      body: { expiresAt: inDays(90), name: "CI", cidrAllowlist: ["2001:DB8::/32", "10.0.0.0/8", "10.0.0.0/8"] },
    });
    expect(response.status).toBe(201);
    expect(response.body.secret).toMatch(/^svc_[0-9A-Za-z]{36}$/);
    expect(response.body.prefix).toBe(response.body.secret.slice(0, 12));
    expect(response.body.cidrAllowlist).toEqual(["2001:db8::/32", "10.0.0.0/8"]);
    const row = await db().apiKey.findUniqueOrThrow({ where: { id: response.body.id } });
    expect(JSON.stringify(row)).not.toContain(response.body.secret);
    expect((await call(GET, { apiKey: response.body.secret, ip: "10.9.9.9" })).status).toBe(200);
  });

  describe("from an employee session (Service-Totp-Code)", () => {
    it("400 err_otp_required without 2FA enrolled, telling them to enrol", async () => {
      const { session } = await signedInEmployee();
      const response = await issue({ session, body: { expiresAt: inDays(30) } });
      expectError(response, 400, "err_otp_required");
      expect(response.body.message).toMatch(/enrol/i);
    });

    it("400 err_otp_required without the header; err_otp_invalid for wrong, malformed, stale or replayed codes; 201 with a fresh one", async () => {
      const { session, authenticator } = await signedInEmployee({ totp: true });
      const body = { expiresAt: inDays(30) };
      const missing = await issue({ session, body });
      expectError(missing, 400, "err_otp_required");
      for (const totp of [
        authenticator!.wrongCode(),
        "12ab56",
        "1234567",
        authenticator!.codeAt(Math.floor(Date.now() / 1000) - 90),
      ]) {
        const response = await issue({ session, body, totp });
        expectError(response, 400, "err_otp_invalid");
      }
      const code = authenticator!.nextCode();
      expect((await issue({ session, body, totp: code })).status).toBe(201);
      const replay = await issue({ session, body, totp: code });
      expectError(replay, 400, "err_otp_invalid");
      expect(await db().apiKey.count({ where: { createdById: { not: null } } })).toBeGreaterThanOrEqual(1);
    });

    it("403 cross-site, before the code is spent", async () => {
      const { session, authenticator } = await signedInEmployee({ totp: true });
      const code = authenticator!.nextCode();
      const response = await issue({
        session,
        body: { expiresAt: inDays(30) },
        totp: code,
        headers: { origin: "https://evil.example" },
      });
      expect(response.status).toBe(403);
      expect((await issue({ session, body: { expiresAt: inDays(30) }, totp: code })).status).toBe(201);
    });
  });

  it("422 naming expiresAt when missing, malformed, not in the future or more than a year away", async () => {
    const { account } = await signedInEmployee();
    const caller = await apiKeyFor(account.id);
    for (const expiresAt of [undefined, "tomorrow", new Date(Date.now() - 1000).toISOString(), inDays(367)]) {
      const response = await issue({ apiKey: caller.secret, body: { expiresAt } });
      expectError(response, 422, "err_validation");
      expect(response.body.details).toHaveProperty("expiresAt");
    }
  });

  it("422 naming the index of a bad CIDR range", async () => {
    const { account } = await signedInEmployee();
    const caller = await apiKeyFor(account.id);
    const response = await issue({
      apiKey: caller.secret,
      body: { expiresAt: inDays(1), cidrAllowlist: ["10.0.0.0/8", "10.0.0.1/8", "nope"] },
    });
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.details ?? {}).sort()).toEqual(["cidrAllowlist.1", "cidrAllowlist.2"]);
  });
});

describe("POST /v1/api_keys: permissions", () => {
  const issue = (options: Parameters<typeof call>[1]) => call(POST, { method: "POST", ...options });

  it("left out: every default key permission, never employees:write; the key shows who issued it", async () => {
    const { account } = await signedInEmployee();
    const caller = await apiKeyFor(account.id, { permissions: KEY_PERMISSIONS });
    const response = await issue({ apiKey: caller.secret, body: { expiresAt: inDays(30) } });
    expect(response.status).toBe(201);
    expect(response.body.permissions).toEqual([...DEFAULT_KEY_PERMISSIONS]);
    expect(response.body.permissions).not.toContain("employees:write");
    expect(response.body.createdBy).toEqual({ type: "api_key", id: caller.id });
  });

  it("named: exactly those, in the table's order; employees:write only when named", async () => {
    const { account } = await signedInEmployee();
    const caller = await apiKeyFor(account.id, { permissions: KEY_PERMISSIONS });
    const response = await issue({
      apiKey: caller.secret,
      body: { expiresAt: inDays(30), permissions: ["employees:write", "transactions:read", "transactions:read"] },
    });
    expect(response.body.permissions).toEqual(["employees:write", "transactions:read"]);
  });

  it("no escalation: a key cannot issue a key with a permission it lacks; by default it passes on only its own", async () => {
    const { account } = await signedInEmployee();
    const narrow = await apiKeyFor(account.id, { permissions: ["api_keys:write", "transactions:read"] });
    const wider = await issue({
      apiKey: narrow.secret,
      body: { expiresAt: inDays(30), permissions: ["transactions:read", "recipients:write"] },
    });
    expect(wider.status).toBe(403);
    expect(wider.body).toMatchObject({ error_code: "err_forbidden", details: { permission: "recipients:write" } });
    const defaulted = await issue({ apiKey: narrow.secret, body: { expiresAt: inDays(30) } });
    expect(defaulted.body.permissions).toEqual(["api_keys:write", "transactions:read"]);
  });

  it("an employee passes on only what their role holds: a developer's key never reads KYC or invites", async () => {
    const developer = await signedInEmployee({ totp: true, role: "developer" });
    const defaulted = await issue({
      session: developer.session,
      totp: developer.authenticator!.nextCode(),
      body: { expiresAt: inDays(30) },
    });
    expect(defaulted.status).toBe(201);
    expect(defaulted.body.permissions).not.toContain("kyc:read");
    expect(defaulted.body.createdBy).toEqual({ type: "employee", id: developer.employee.id });
    const invite = await issue({
      session: developer.session,
      totp: developer.authenticator!.nextCode(),
      body: { expiresAt: inDays(30), permissions: ["employees:write"] },
    });
    expect(invite.status).toBe(403);
    expect(invite.body.details).toEqual({ permission: "employees:write" });
  });

  it("422 for a name that is no permission, or one no key may hold", async () => {
    const { account } = await signedInEmployee();
    const caller = await apiKeyFor(account.id);
    const response = await issue({
      apiKey: caller.secret,
      body: { expiresAt: inDays(30), permissions: ["transactions:read", "root", "settings:write", "roles"] },
    });
    expect(response.status).toBe(422);
    expect(response.body.details).toEqual({
      "permissions.1": '"root" is not a permission',
      "permissions.2": '"settings:write" cannot be held by an API key',
      "permissions.3": '"roles" cannot be held by an API key',
    });
  });

  it("403 for a key without api_keys:write", async () => {
    const { account } = await signedInEmployee();
    const reader = await apiKeyFor(account.id, { permissions: ["api_keys:read"] });
    const response = await issue({ apiKey: reader.secret, body: { expiresAt: inDays(30) } });
    expect(response.status).toBe(403);
    expect(response.body.details).toEqual({ permission: "api_keys:write" });
  });
});

describe("POST /v1/api_keys: audit", () => {
  it("the audit record holds the new key's name, permissions, allowlist and expiry, never its secret", async () => {
    const { account } = await signedInEmployee();
    const admin = await apiKeyFor(account.id);
    const expiresAt = inDays(30);
    const response = await issue({
      apiKey: admin.secret,
      body: { name: "CI", expiresAt, cidrAllowlist: ["10.0.0.0/8"], permissions: ["api_keys:read"] },
    });
    expect(response.status).toBe(201);
    const event = await lastAuditEvent({ action: "api_key.issue", targetId: response.body.id });
    expect(event.details).toEqual({
      after: { name: "CI", permissions: ["api_keys:read"], cidrAllowlist: ["10.0.0.0/8"], expiresAt, rateLimit: null },
    });
    expect(JSON.stringify(event.details)).not.toContain(response.body.secret);
  });
});
