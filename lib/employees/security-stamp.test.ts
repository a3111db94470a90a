import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as acceptInvitation } from "@/app/v1/employees/invitations/accept/route";
import { POST as acceptReset } from "@/app/v1/employees/password_reset/accept/route";
import { POST as reissue } from "@/app/v1/employees/[id]/invitation/route";
import { POST as createReset } from "@/app/v1/employees/[id]/password_reset/route";
import { POST as changeRole } from "@/app/v1/employees/[id]/route";
import { POST as changePassword } from "@/app/v1/employees/me/password/route";
import { POST as invite } from "@/app/v1/employees/route";
import { POST as signIn } from "@/app/v1/sessions/route";
import { createSession } from "@/lib/auth/sessions";
import { db } from "@/lib/db";
import { invitationSignIn } from "@/lib/employees/invitations";
import { saveSsoConnection } from "@/lib/sso/connection";
import { PASSWORD, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { startTestProvider, type TestProvider } from "@/lib/testing/oidc-provider";

// The fourth outside attack: a link issued to an employee outlived a change of their role. An admin
// invited `ira` as admin, an owner then made `ira` an owner, and whoever held the link set the password
// of an owner. The same with a password-reset link. Links carry the employee's security stamp, which
// every change of role, status, e-mail or password moves.

type Staff = Awaited<ReturnType<typeof signedInEmployee>>;
const CHOSEN = "the password the link holder chose";
const tokenOf = (url: string) => new URL(url).searchParams.get("token")!;
const stampOf = async (id: string) => (await db().employee.findUniqueOrThrow({ where: { id } })).securityStamp;

const inviteAs = async (by: Staff, role: string) => {
  const invited = await call(invite, {
    method: "POST",
    session: by.session,
    totp: by.authenticator!.nextCode(),
    body: { name: "Ira", email: `ira.${Date.now()}.${Math.random()}@example.com`, role },
  });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  return { id: invited.body.id as string, token: tokenOf(invited.body.invitationUrl as string) };
};
const makeRole = (by: Staff, id: string, role: string) =>
  call(changeRole, {
    method: "POST",
    session: by.session,
    totp: by.authenticator!.nextCode(),
    params: { id },
    body: { role },
  });
const resetLinkFor = async (by: Staff, id: string) => {
  const created = await call(createReset, {
    method: "POST",
    session: by.session,
    totp: by.authenticator!.nextCode(),
    params: { id },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return tokenOf(created.body.passwordResetUrl as string);
};
const newInvitationLink = async (by: Staff, id: string) => {
  const again = await call(reissue, {
    method: "POST",
    session: by.session,
    totp: by.authenticator!.nextCode(),
    params: { id },
  });
  expect(again.status).toBe(201);
  return tokenOf(again.body.invitationUrl as string);
};
const accept = (token: string, password?: string) =>
  call(acceptInvitation, { method: "POST", body: password === undefined ? { token } : { token, password } });
const reset = (token: string, password = CHOSEN) => call(acceptReset, { method: "POST", body: { token, password } });

async function ownerAndAdmin() {
  const owner = await signedInEmployee({ totp: true });
  const admin = await signedInEmployee({ totp: true, role: "admin", platform: owner.account });
  return { owner, admin };
}

describe("the security stamp", () => {
  it("moves with every change of role, status, e-mail or password, by any writer, and with nothing else", async () => {
    const { employee } = await signedInEmployee({ role: "viewer" });
    const where = { id: employee.id };
    let stamp = await stampOf(employee.id);
    const expectMoved = async (what: string) => {
      const moved = await stampOf(employee.id);
      expect(moved, what).toBeGreaterThan(stamp);
      stamp = moved;
    };
    await db().employee.update({ where, data: { role: "developer" } });
    await expectMoved("role");
    await db().employee.update({ where, data: { email: `moved.${employee.id}@example.com` } });
    await expectMoved("email");
    await db().employee.update({
      where,
      data: { passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$bm90aGluZw$bm90aGluZw" },
    });
    await expectMoved("passwordHash");
    // Not only the service's own writes: an operator's SQL moves it too.
    await db()
      .$executeRaw`UPDATE "Employee" SET "name" = 'Deactivated By Hand', "status" = 'deactivated' WHERE "id" = ${employee.id}`;
    await expectMoved("status, by raw SQL");
    // The same value again, and columns that are no credential, leave it.
    await db().employee.update({ where, data: { role: "developer", name: "Someone Else", lastLoginAt: new Date() } });
    expect(await stampOf(employee.id)).toBe(stamp);
  });
});

describe("an invitation link", () => {
  // High: an admin became owner through the link of an invitation made before the promotion.
  it("answers 404 once the invited employee's role changed; no password is set and no session made", async () => {
    const { owner, admin } = await ownerAndAdmin();
    const ira = await inviteAs(admin, "admin");
    expect(await invitationSignIn(ira.token)).toBe("password");
    expect((await makeRole(owner, ira.id, "owner")).status).toBe(200);
    // The acceptance page shows the link as invalid, before anyone types a password.
    expect(await invitationSignIn(ira.token)).toBeNull();
    const accepted = await accept(ira.token, CHOSEN);
    expectError(accepted, 404, "err_not_found");
    expect(accepted.headers.get("set-cookie")).toBeNull();
    expect(await db().employee.findUniqueOrThrow({ where: { id: ira.id } })).toMatchObject({
      status: "invited",
      role: "owner",
      passwordHash: null,
    });
    // The owner can give a new link; it works, as the old one never will again.
    expect((await accept(await newInvitationLink(owner, ira.id), CHOSEN)).status).toBe(200);
    expectError(await accept(ira.token, CHOSEN), 404, "err_not_found");
  });

  it("answers 404 once a newer invitation link was issued", async () => {
    const { admin } = await ownerAndAdmin();
    const ira = await inviteAs(admin, "viewer");
    const newer = await newInvitationLink(admin, ira.id);
    expectError(await accept(ira.token, CHOSEN), 404, "err_not_found");
    expect((await accept(newer, CHOSEN)).status).toBe(200);
  });
});

describe("a password-reset link", () => {
  // Medium: an admin set an owner's password with a link made while the employee was not yet an owner.
  it("answers 404 once the employee was promoted; the password stays theirs", async () => {
    const { owner, admin } = await ownerAndAdmin();
    const employee = await signedInEmployee({ role: "developer", platform: owner.account });
    const token = await resetLinkFor(admin, employee.employee.id);
    expect((await makeRole(owner, employee.employee.id, "owner")).status).toBe(200);
    expectError(await reset(token), 404, "err_not_found");
    expectError(
      await call(signIn, { method: "POST", body: { email: employee.email, password: CHOSEN } }),
      401,
      "err_unauthenticated",
    );
    expect((await call(signIn, { method: "POST", body: { email: employee.email, password: PASSWORD } })).status).toBe(
      200,
    );
  });

  it("answers 404 once the employee changed their own password or e-mail", async () => {
    const { owner, admin } = await ownerAndAdmin();
    const employee = await signedInEmployee({ role: "compliance", platform: owner.account });
    const token = await resetLinkFor(admin, employee.employee.id);
    const changed = await call(changePassword, {
      method: "POST",
      session: employee.session,
      body: { currentPassword: PASSWORD, newPassword: "their own brand new password" },
    });
    expect(changed.status).toBe(200);
    expectError(await reset(token), 404, "err_not_found");

    const second = await resetLinkFor(admin, employee.employee.id);
    await db().employee.update({ where: { id: employee.employee.id }, data: { email: `new.${employee.email}` } });
    expectError(await reset(second), 404, "err_not_found");
  });
});

describe("single sign-on required: no session but through the identity provider", () => {
  let provider: TestProvider;
  beforeAll(async () => {
    provider = await startTestProvider({ redirectUris: ["http://localhost:3000/v1/sso/callback"] });
  });
  afterAll(() => provider.close());

  /** A platform whose owner then requires single sign-on; `employee`, a developer, was signed in before. */
  async function enforcing() {
    const { owner, admin } = await ownerAndAdmin();
    const employee = await signedInEmployee({ role: "developer", platform: owner.account });
    await saveSsoConnection(owner.account.id, {
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      allowedDomains: [],
      enforced: true,
    });
    return { owner, admin, employee };
  }

  it("accepting an invitation activates a non-owner without a password or a session: { signIn: 'sso' }", async () => {
    const { admin } = await enforcing();
    const ira = await inviteAs(admin, "compliance");
    // A password sent along is not set: it would open nothing, and must not once SSO is no longer required.
    const accepted = await accept(ira.token, CHOSEN);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ signIn: "sso" });
    expect(accepted.headers.get("set-cookie")).toBeNull();
    expect(await db().employee.findUniqueOrThrow({ where: { id: ira.id } })).toMatchObject({
      status: "active",
      passwordHash: null,
    });
    expect(await db().session.count({ where: { employeeId: ira.id } })).toBe(0);
    expectError(await accept(ira.token), 404, "err_not_found");
  });

  it("without a password, an invitation under required SSO is accepted; elsewhere it is a 422", async () => {
    const { admin } = await enforcing();
    expect((await accept((await inviteAs(admin, "viewer")).token)).body).toEqual({ signIn: "sso" });
    const plain = await ownerAndAdmin();
    const missing = await accept((await inviteAs(plain.admin, "viewer")).token);
    expectError(missing, 422, "err_validation");
    expect(missing.body.details).toEqual({ password: "is required" });
  });

  it("an owner invited under required SSO still gets a password and a session (their break-glass)", async () => {
    const { owner } = await enforcing();
    const other = await inviteAs(owner, "owner");
    const accepted = await accept(other.token, CHOSEN);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ signIn: "password", employee: { role: "owner" } });
    expect(accepted.headers.get("set-cookie")).toMatch(/HttpOnly/);
  });

  it("a password reset says to sign in through SSO, and a password and passkey sign-in is refused", async () => {
    const { admin, employee } = await enforcing();
    const done = await reset(await resetLinkFor(admin, employee.employee.id));
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ passwordReset: true, signIn: "sso" });
    const assertion = {
      id: "AAAA",
      rawId: "AAAA",
      type: "public-key",
      response: { clientDataJSON: "AAAA", authenticatorData: "AAAA", signature: "AAAA" },
      clientExtensionResults: {},
    };
    for (const body of [
      { email: employee.email, password: CHOSEN },
      { email: employee.email, password: CHOSEN, passkey: assertion },
    ]) {
      const refused = await call(signIn, { method: "POST", body });
      expectError(refused, 403, "err_sso_required");
      expect(refused.headers.get("set-cookie")).toBeNull();
    }
  });

  it("is kept where every session is made: only a session through the provider for a non-owner", async () => {
    const { owner, employee } = await enforcing();
    await expect(createSession({ employeeId: employee.employee.id, ip: null })).rejects.toMatchObject({
      kind: "sso_required",
    });
    await expect(createSession({ employeeId: employee.employee.id, ip: null, viaSso: true })).resolves.toHaveProperty(
      "cookie",
    );
    await expect(createSession({ employeeId: owner.employee.id, ip: null })).resolves.toHaveProperty("cookie");
  });
});
