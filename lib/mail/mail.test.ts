import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as acceptInvitation } from "@/app/v1/employees/invitations/accept/route";
import { POST as reissue } from "@/app/v1/employees/[id]/invitation/route";
import { POST as createReset } from "@/app/v1/employees/[id]/password_reset/route";
import { POST as acceptReset } from "@/app/v1/employees/password_reset/accept/route";
import { POST as invite } from "@/app/v1/employees/route";
import { POST as signIn } from "@/app/v1/sessions/route";
import { issueApiKey } from "@/lib/api-keys/api-keys";
import { resetEnv } from "@/lib/env";
import { signedInEmployee } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { linkIn, startSmtpSink, unusedPort, type SmtpSink } from "@/lib/testing/smtp-sink";
import { withScope } from "@/lib/tenancy";
import { sendExpiryNotices } from "@/lib/webhooks/expiry-notices";

// E-mail over a real SMTP server (docs/operations.md, E-mail): the links the service e-mails
// arrive and work, and a mail server that cannot be reached fails nothing but the e-mail.

const PASSWORD = "a long password from an e-mail";
let sink: SmtpSink;

function configure(smtpUrl: string | undefined) {
  if (smtpUrl) process.env.SMTP_URL = smtpUrl;
  else delete process.env.SMTP_URL;
  process.env.MAIL_FROM = "Compliance <no-reply@example.com>";
  resetEnv();
}

beforeAll(async () => {
  sink = await startSmtpSink();
  configure(sink.url);
});
afterEach(() => configure(sink.url));
afterAll(async () => {
  configure(undefined);
  delete process.env.MAIL_FROM;
  resetEnv();
  await sink.close();
});

type Staff = Awaited<ReturnType<typeof signedInEmployee>>;
const inviteBy = (owner: Staff, email: string) =>
  call(invite, {
    method: "POST",
    session: owner.session,
    totp: owner.authenticator!.nextCode(),
    body: { name: "Mai Lee", email },
  });
const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;

describe("e-mail over SMTP", () => {
  it("an invitation is e-mailed with the link the admin sees, and the e-mailed link works", async () => {
    const owner = await signedInEmployee({ totp: true });
    const email = `mai.${owner.account.id}@example.com`.toLowerCase();
    const response = await inviteBy(owner, email);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.emailed).toBe(true);
    const mail = await sink.waitFor(email, /invited/);
    expect(mail.from).toBe("no-reply@example.com");
    expect(mail.text).toContain("Mai Lee");
    const link = linkIn(mail);
    expect(link).toBe(response.body.invitationUrl);
    const accepted = await call(acceptInvitation, {
      method: "POST",
      body: { token: tokenOf(link), password: PASSWORD },
    });
    expect(accepted.status).toBe(200);
    expect((await call(signIn, { method: "POST", body: { email, password: PASSWORD } })).status).toBe(200);
  });

  it("a re-issued invitation is e-mailed too; only its link works", async () => {
    const owner = await signedInEmployee({ totp: true });
    const email = `again.${owner.account.id}@example.com`.toLowerCase();
    const first = await inviteBy(owner, email);
    const again = await call(reissue, {
      method: "POST",
      session: owner.session,
      totp: owner.authenticator!.nextCode(),
      params: { id: first.body.id! },
    });
    expect(again.status).toBe(201);
    expect(again.body.emailed).toBe(true);
    await vi.waitFor(() => expect(sink.received.filter((mail) => mail.to.includes(email))).toHaveLength(2));
    const [older, newer] = sink.received.filter((mail) => mail.to.includes(email)).map(linkIn);
    expect(newer).toBe(again.body.invitationUrl);
    const body = (link: string) => ({ token: tokenOf(link), password: PASSWORD });
    expect((await call(acceptInvitation, { method: "POST", body: body(older!) })).status).toBe(404);
    expect((await call(acceptInvitation, { method: "POST", body: body(newer!) })).status).toBe(200);
  });

  it("a password-reset link is e-mailed to the employee, and the e-mailed link sets the password", async () => {
    const owner = await signedInEmployee({ totp: true });
    const employee = await signedInEmployee({ role: "developer", platform: owner.account });
    const response = await call(createReset, {
      method: "POST",
      session: owner.session,
      totp: owner.authenticator!.nextCode(),
      params: { id: employee.employee.id },
    });
    expect(response.status).toBe(201);
    expect(response.body.emailed).toBe(true);
    const mail = await sink.waitFor(employee.email, /Reset your/);
    const link = linkIn(mail);
    expect(link).toBe(response.body.passwordResetUrl);
    const reset = await call(acceptReset, { method: "POST", body: { token: tokenOf(link), password: PASSWORD } });
    expect(reset.status).toBe(200);
    const signedIn = await call(signIn, { method: "POST", body: { email: employee.email, password: PASSWORD } });
    expect(signedIn.status).toBe(200);
  });

  it("an expiring key's notice is e-mailed to the employee who issued it, once", async () => {
    const owner = await signedInEmployee();
    const expiresAt = new Date(Date.now() + 5 * 86_400_000).toISOString();
    const key = await withScope({ platformId: owner.account.id, accountId: owner.account.id }, () =>
      issueApiKey({ name: "Nightly export", expiresAt, createdBy: { type: "employee", id: owner.employee.id } }),
    );
    await sendExpiryNotices();
    const mail = await sink.waitFor(owner.email, /expires in 5 days/);
    expect(mail.text).toContain(key.id);
    expect(mail.text).toContain("Nightly export");
    expect(mail.text).not.toContain(key.secret);
    await sendExpiryNotices();
    expect(sink.received.filter((one) => one.to.includes(owner.email))).toHaveLength(1);
  });

  it("a mail server that cannot be reached: the request still succeeds, emailed: false, and the log holds no link", async () => {
    configure(`smtp://127.0.0.1:${await unusedPort()}`);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const owner = await signedInEmployee({ totp: true });
    const response = await inviteBy(owner, `unreached.${owner.account.id}@example.com`.toLowerCase());
    expect(response.status).toBe(201);
    expect(response.body.emailed).toBe(false);
    const lines = logged.mock.calls.map((args) => args.join(" ")).join("\n");
    logged.mockRestore();
    expect(lines).toMatch(/could not send the invitation e-mail/);
    expect(lines).not.toContain(tokenOf(response.body.invitationUrl!));
    const accepted = await call(acceptInvitation, {
      method: "POST",
      body: { token: tokenOf(response.body.invitationUrl!), password: PASSWORD },
    });
    expect(accepted.status).toBe(200);
  });
});
