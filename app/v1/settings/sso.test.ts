import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as testSso } from "@/app/v1/settings/sso/test/route";
import { GET as startSso } from "@/app/v1/sso/start/route";
import { db } from "@/lib/db";
import { resetEnv } from "@/lib/env";
import { saveSsoConnection, ssoClientOf } from "@/lib/sso/connection";
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

// The fourth outside attack: the discovery test dialled loopback with private targets off, and its answer
// told an open port from a closed one (ECONNRESET against ECONNREFUSED), an internal port scanner; a
// saved issuer made the anonymous GET /v1/sso/start dial it again.
describe("single sign-on's requests go through the outbound gate", () => {
  /** A port on loopback that takes connections and drops them at once: open, but no issuer. */
  async function openPort() {
    let connections = 0;
    const server = net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return {
      port: (server.address() as net.AddressInfo).port,
      connections: () => connections,
      close: () => new Promise((resolve) => server.close(resolve)),
    };
  }
  async function closedPort() {
    const probe = await openPort();
    await probe.close();
    return probe.port;
  }
  async function withInsecureIssuer<T>(allowed: boolean, work: () => Promise<T>) {
    process.env.SSO_ALLOW_INSECURE_ISSUER = String(allowed);
    resetEnv();
    try {
      return await work();
    } finally {
      process.env.SSO_ALLOW_INSECURE_ISSUER = "true";
      resetEnv();
    }
  }

  it("the discovery test sends nothing to loopback without SSO_ALLOW_INSECURE_ISSUER, and never tells open from closed", async () => {
    const owner = await signedInEmployee();
    const open = await openPort();
    const closed = await closedPort();
    const test = async (issuer: string) => {
      const answer = await call(testSso, { method: "POST", session: owner.session, body: { issuer } });
      expectError(answer, 422, "err_validation");
      return answer.body.details!.issuer;
    };
    try {
      await withInsecureIssuer(false, async () => {
        for (const host of ["127.0.0.1", "127.1.2.3", "[::1]", "[::ffff:127.0.0.1]", "localhost", "169.254.169.254"]) {
          expect(await test(`https://${host}:${open.port}`), host).toMatch(/public addresses only|metadata/);
        }
        expect(await test(`https://127.0.0.1:${open.port}`)).toBe(await test(`https://127.0.0.1:${closed}`));
      });
      expect(open.connections()).toBe(0);
      // With a provider allowed on this machine, a port that drops the connection and one that refuses it
      // read alike.
      await withInsecureIssuer(true, async () => {
        const whenOpen = await test(`https://127.0.0.1:${open.port}`);
        expect(whenOpen).toBe(await test(`https://127.0.0.1:${closed}`));
        expect(whenOpen).toBe("discovery failed: could not connect, or no answer within 10 s");
      });
      expect(open.connections()).toBeGreaterThan(0);
    } finally {
      await open.close();
    }
  });

  it("a saved issuer the gate refuses is not dialled by the anonymous start of a sign-in", async () => {
    const owner = await signedInEmployee();
    const open = await openPort();
    try {
      // Saved while a provider on this machine was allowed; the server then runs without that setting.
      await saveSsoConnection(owner.account.id, {
        issuer: `https://127.0.0.1:${open.port}`,
        clientId: "client",
        clientSecret: "secret",
        allowedDomains: [],
        enforced: false,
      });
      await withInsecureIssuer(false, async () => {
        const started = await call(startSso, { path: `/v1/sso/start?email=${encodeURIComponent(owner.email)}` });
        expect(started.status).toBe(302);
        expect(new URL(started.headers.get("location")!).searchParams.get("sso_error")).toMatch(/could not be reached/);
      });
      expect(open.connections()).toBe(0);
    } finally {
      await open.close();
    }
  });
});
