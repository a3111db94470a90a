import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { POST as issue } from "@/app/v1/api_keys/route";
import { POST as startTotp } from "@/app/v1/employees/totp/route";
import { POST as confirmTotp } from "@/app/v1/employees/totp/confirm/route";
import { POST as signIn } from "@/app/v1/sessions/route";
import { POST as setup } from "@/app/v1/setup/route";
import { POST as updateSettings } from "@/app/v1/settings/route";
import { db } from "@/lib/db";
import { databaseFile } from "@/lib/env";
import { currentSetupToken } from "@/lib/employees/setup";
import { Authenticator, call, sessionFrom } from "@/lib/testing/http";

describe("secrets at rest", () => {
  it("no password, session token, TOTP secret, recovery code, API key or SSO client secret is in the database file", async () => {
    const password = "a password nobody should read";
    const setupToken = currentSetupToken();
    const created = await call(setup, {
      method: "POST",
      body: { setupToken, accountName: "Acme", name: "Ada", email: "ada@example.com", password },
    });
    expect(created.status).toBe(201);
    const session = sessionFrom(created.headers);
    const { body: enrolment } = await call(startTotp, { method: "POST", session, body: { password } });
    const authenticator = new Authenticator(enrolment.secret);
    const { body: confirmed } = await call(confirmTotp, {
      method: "POST",
      session,
      body: { code: authenticator.nextCode() },
    });
    const key = await call(issue, {
      method: "POST",
      session,
      totp: authenticator.nextCode(),
      body: { expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(key.status).toBe(201);
    const ssoClientSecret = "an SSO client secret nobody should read";
    const sso = await call(updateSettings, {
      method: "POST",
      session,
      totp: authenticator.nextCode(),
      body: { sso: { issuer: "https://login.example.com", clientId: "compliance", clientSecret: ssoClientSecret } },
    });
    expect(sso.status).toBe(200);
    const again = await call(signIn, {
      method: "POST",
      body: { email: "ada@example.com", password, totpCode: authenticator.nextCode() },
    });
    expect(again.status).toBe(200);

    await db().$queryRawUnsafe("PRAGMA wal_checkpoint(TRUNCATE)");
    const file = databaseFile();
    const bytes = Buffer.concat([
      readFileSync(file),
      ...[`${file}-wal`].map((wal) => {
        try {
          return readFileSync(wal);
        } catch {
          return Buffer.alloc(0);
        }
      }),
    ]).toString("latin1");
    const secrets = {
      password,
      setupToken,
      session,
      secondSession: sessionFrom(again.headers),
      totpSecret: enrolment.secret,
      apiKey: key.body.secret,
      ssoClientSecret,
      ...Object.fromEntries(confirmed.recoveryCodes.map((code: string, i: number) => [`recovery${i}`, code])),
      ...Object.fromEntries(
        confirmed.recoveryCodes.map((code: string, i: number) => [`recoveryBare${i}`, code.replaceAll("-", "")]),
      ),
    };
    // The check itself must be able to fail: something we did store in plain text is found.
    expect(bytes).toContain("ada@example.com");
    for (const [what, secret] of Object.entries(secrets)) {
      expect(bytes.includes(secret), `${what} found in the database file`).toBe(false);
    }
  });
});
