import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as testSso } from "@/app/v1/settings/sso/test/route";
import { db } from "@/lib/db";
import { ssoClientOf } from "@/lib/sso/connection";
import { signedInEmployee } from "@/lib/testing/factories";
import { call, expectError, ORIGIN } from "@/lib/testing/http";
import { startTestProvider, type TestProvider } from "@/lib/testing/oidc-provider";
import { GET, POST } from "./route";

let provider: TestProvider;
beforeAll(async () => {
  provider = await startTestProvider({ redirectUris: [`${ORIGIN}/v1/sso/callback`] });
});
afterAll(() => provider.close());

const SECRET = "the-client-secret-nobody-reads-back";

describe("settings.sso", () => {
  it("an owner sets it with a code; the secret is write-only, encrypted at rest, kept when left out, never audited", async () => {
    const owner = await signedInEmployee({ totp: true });
    const sso = { issuer: provider.issuer, clientId: "client-1", allowedDomains: ["Example.com"], enforced: true };
    const saved = await call(POST, {
      method: "POST",
      session: owner.session,
      totp: owner.authenticator!.nextCode(),
      body: { sso: { ...sso, clientSecret: SECRET } },
    });
    expect(saved.status).toBe(200);
    const shown = { ...sso, allowedDomains: ["example.com"], clientSecretSet: true };
    expect(saved.body.sso).toEqual(shown);
    expect((await call(GET, { session: owner.session })).body.sso).toEqual(shown);

    const changed = await call(POST, {
      method: "POST",
      session: owner.session,
      totp: owner.authenticator!.nextCode(),
      body: { sso: { ...sso, clientId: "client-2", enforced: false } },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.sso).toMatchObject({ clientId: "client-2", enforced: false });
    expect((await ssoClientOf(owner.account.id))!.clientSecret).toBe(SECRET);

    const row = await db().ssoConnection.findUniqueOrThrow({ where: { platformId: owner.account.id } });
    expect(row.clientSecretEncrypted).not.toContain(SECRET);
    const audits = await db().auditEvent.findMany({ where: { action: "settings.update" } });
    expect(audits).toHaveLength(2);
    expect(JSON.stringify(audits)).not.toContain(SECRET);
    expect(audits[0]!.details).toMatchObject({ sso: { clientSecretChanged: true } });

    const off = await call(POST, {
      method: "POST",
      session: owner.session,
      totp: owner.authenticator!.nextCode(),
      body: { sso: null },
    });
    expect(off.body.sso).toBeNull();
  });

  it("the first setup needs a secret; an admin may not touch SSO; a code is needed", async () => {
    const owner = await signedInEmployee({ totp: true });
    const sso = { issuer: provider.issuer, clientId: "client-1" };
    const noSecret = await call(POST, {
      method: "POST",
      session: owner.session,
      totp: owner.authenticator!.nextCode(),
      body: { sso },
    });
    expectError(noSecret, 422, "err_validation");
    expect(noSecret.body.details).toEqual({ "sso.clientSecret": "is required when single sign-on is first set up" });
    const admin = await signedInEmployee({ totp: true, platform: owner.account, role: "admin" });
    const byAdmin = await call(POST, {
      method: "POST",
      session: admin.session,
      totp: admin.authenticator!.nextCode(),
      body: { sso: { ...sso, clientSecret: SECRET } },
    });
    expectError(byAdmin, 403, "err_forbidden");
    expect(byAdmin.body.details).toEqual({ permission: "owners" });
    expectError(
      await call(POST, { method: "POST", session: owner.session, body: { sso: { ...sso, clientSecret: SECRET } } }),
      400,
      "err_otp_required",
    );
    const insecure = await call(POST, {
      method: "POST",
      session: owner.session,
      totp: owner.authenticator!.nextCode(),
      body: { sso: { ...sso, issuer: "http://login.example.com", clientSecret: SECRET } },
    });
    expectError(insecure, 422, "err_validation");
    expect(await db().ssoConnection.count()).toBe(0);
  });
});

describe("POST /v1/settings/sso/test", () => {
  it("answers the issuer's discovery document, or 422 saying what failed", async () => {
    const owner = await signedInEmployee();
    const found = await call(testSso, { method: "POST", session: owner.session, body: { issuer: provider.issuer } });
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ issuer: provider.issuer, jwksUri: expect.stringContaining(provider.issuer) });
    const missing = await call(testSso, {
      method: "POST",
      session: owner.session,
      body: { issuer: "http://127.0.0.1:9/nothing-here" },
    });
    expectError(missing, 422, "err_validation");
    expect(missing.body.details?.issuer).toMatch(/^discovery failed: /);
    const admin = await signedInEmployee({ platform: owner.account, role: "admin" });
    expectError(
      await call(testSso, { method: "POST", session: admin.session, body: { issuer: provider.issuer } }),
      403,
      "err_forbidden",
    );
  });
});
