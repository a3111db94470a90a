import { describe, expect, it } from "vitest";
import * as employees from "@/app/v1/employees/route";
import * as employee from "@/app/v1/employees/[id]/route";
import * as employeeTotp from "@/app/v1/employees/[id]/totp/route";
import * as ownPassword from "@/app/v1/employees/me/password/route";
import * as startTotp from "@/app/v1/employees/totp/route";
import * as confirmTotp from "@/app/v1/employees/totp/confirm/route";
import * as recoveryCodes from "@/app/v1/employees/totp/recovery_codes/route";
import * as settings from "@/app/v1/settings/route";
import * as webhookEndpoints from "@/app/v1/webhook_endpoints/route";
import * as webhookEndpoint from "@/app/v1/webhook_endpoints/[id]/route";
import * as retry from "@/app/v1/webhook_endpoints/[id]/events/[eventId]/retry/route";
import * as sendTest from "@/app/v1/webhook_endpoints/[id]/test/route";
import { KEY_PERMISSIONS } from "@/lib/auth/permissions";
import { PASSWORD, platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { Authenticator, call } from "@/lib/testing/http";
import { lastAuditEvent } from "@/lib/testing/audit";

// The audit record of every credential, role, setting and webhook change carries `details` with what
// changed (before and after), never a secret (docs/security.md, The audit record). The API key routes'
// own tests check theirs (app/v1/api_keys/**/route.test.ts), the webhook worker's its automatic disable.

const NEW_PASSWORD = "a quite different passphrase, 2026";

describe("audit details of employee changes", () => {
  it("invite: the e-mail, role, status and link expiry, never the link", async () => {
    const { apiKey, account } = await platformWithKey({ permissions: [...KEY_PERMISSIONS] });
    const email = `invitee.${account.id}@example.com`.toLowerCase();
    const response = await call(employees.POST, { method: "POST", apiKey, body: { name: "Invitee", email } });
    expect(response.status).toBe(201);
    const event = await lastAuditEvent({ action: "employee.invite", targetId: response.body.id });
    expect(event.details).toEqual({
      email,
      role: "viewer",
      after: { email, role: "viewer", status: "invited", invitationExpiresAt: response.body.invitationExpiresAt },
    });
    const token = new URL(response.body.invitationUrl).searchParams.get("token")!;
    expect(JSON.stringify(event.details)).not.toContain(token);
  });

  it("role change: the role before and after", async () => {
    const owner = await signedInEmployee({ totp: true });
    const { employee: colleague } = await signedInEmployee({ platform: owner.account, role: "viewer" });
    const response = await call(employee.POST, {
      method: "POST",
      params: { id: colleague.id },
      session: owner.session,
      totp: owner.authenticator!.nextCode(),
      body: { role: "compliance" },
    });
    expect(response.status).toBe(200);
    const event = await lastAuditEvent({ action: "employee.change_role", targetId: colleague.id });
    expect(event.details).toEqual({ role: "compliance", before: { role: "viewer" }, after: { role: "compliance" } });
  });

  it("deactivation: the status before and after", async () => {
    const { apiKey, account } = await platformWithKey({ permissions: [...KEY_PERMISSIONS] });
    await signedInEmployee({ platform: account, role: "owner" });
    const { employee: colleague } = await signedInEmployee({ platform: account, role: "viewer" });
    const response = await call(employee.DELETE, { method: "DELETE", params: { id: colleague.id }, apiKey });
    expect(response.status).toBe(200);
    const event = await lastAuditEvent({ action: "employee.deactivate", targetId: colleague.id });
    expect(event.details).toMatchObject({
      before: { status: "active" },
      after: { status: "deactivated", deactivatedAt: response.body.deactivatedAt },
    });
  });

  it("2FA reset: two-factor before and after", async () => {
    const owner = await signedInEmployee({ totp: true });
    const { employee: colleague } = await signedInEmployee({ platform: owner.account, role: "viewer", totp: true });
    const response = await call(employeeTotp.DELETE, {
      method: "DELETE",
      params: { id: colleague.id },
      session: owner.session,
      totp: owner.authenticator!.nextCode(),
    });
    expect(response.status).toBe(200);
    const event = await lastAuditEvent({ action: "employee.totp_reset", targetId: colleague.id });
    expect(event.details).toEqual({
      before: { twoFactorEnabled: true },
      after: { twoFactorEnabled: false },
      sessionsEnded: true,
      recoveryCodesDeleted: true,
    });
  });
});

describe("audit details of one's own credentials: facts only", () => {
  it("password change: that it changed, never a password; a refused change records no such fact", async () => {
    const { session, employee: me } = await signedInEmployee();
    const wrong = await call(ownPassword.POST, {
      method: "POST",
      session,
      body: { currentPassword: "not the password at all", newPassword: NEW_PASSWORD },
    });
    expect(wrong.status).toBe(422);
    const refused = await lastAuditEvent({ action: "employee.change_password", actorId: me.id });
    expect(refused.details ?? {}).not.toHaveProperty("passwordChanged");
    const response = await call(ownPassword.POST, {
      method: "POST",
      session,
      body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(response.status).toBe(200);
    const event = await lastAuditEvent({ action: "employee.change_password", actorId: me.id });
    expect(event.details).toEqual({ passwordChanged: true, otherSessionsEnded: true });
    expect(JSON.stringify(event.details)).not.toContain(NEW_PASSWORD);
  });

  it("TOTP enrolment: pending, then on, never the secret, its URI or the codes", async () => {
    const { session, employee: me } = await signedInEmployee();
    const started = await call(startTotp.POST, { method: "POST", session, body: { password: PASSWORD } });
    expect(started.status).toBe(200);
    const start = await lastAuditEvent({ action: "employee.totp_start", actorId: me.id });
    expect(start.details).toEqual({ after: { enrolmentPending: true } });
    const confirmed = await call(confirmTotp.POST, {
      method: "POST",
      session,
      body: { code: new Authenticator(started.body.secret).nextCode() },
    });
    expect(confirmed.status).toBe(200);
    const confirm = await lastAuditEvent({ action: "employee.totp_confirm", actorId: me.id });
    expect(confirm.details).toEqual({
      before: { twoFactorEnabled: false },
      after: { twoFactorEnabled: true },
      recoveryCodesIssued: true,
    });
  });

  it("recovery-code regeneration: how many, never which", async () => {
    const { session, employee: me, authenticator } = await signedInEmployee({ totp: true });
    const response = await call(recoveryCodes.POST, { method: "POST", session, totp: authenticator!.nextCode() });
    expect(response.status).toBe(200);
    const event = await lastAuditEvent({ action: "employee.recovery_codes_regenerate", actorId: me.id });
    expect(event.details).toEqual({
      recoveryCodesIssued: response.body.recoveryCodes.length,
      previousCodesStopped: true,
    });
  });
});

describe("audit details of a settings change", () => {
  it("the settings before and after", async () => {
    const owner = await signedInEmployee({ totp: true });
    const response = await call(settings.POST, {
      method: "POST",
      session: owner.session,
      totp: owner.authenticator!.nextCode(),
      body: { fourEyesApproval: true },
    });
    expect(response.status).toBe(200);
    const event = await lastAuditEvent({ action: "settings.update", actorId: owner.employee.id });
    expect(event.details).toMatchObject({
      fourEyesApproval: true,
      before: { requireTwoFactor: false, fourEyesApproval: false },
      after: { requireTwoFactor: false, fourEyesApproval: true },
    });
  });
});

describe("audit details of webhook endpoint changes", () => {
  const url = "https://hooks.example.com/in";
  const createEndpoint = async (apiKey: string) => {
    const response = await call(webhookEndpoints.POST, {
      method: "POST",
      apiKey,
      body: { url, events: ["transfer.created"] },
    });
    expect(response.status).toBe(201);
    return response.body;
  };

  it("create: the URL, events and state", async () => {
    const { apiKey } = await platformWithKey();
    const created = await createEndpoint(apiKey);
    const event = await lastAuditEvent({ action: "webhook_endpoint.create", targetId: created.id });
    expect(event.details).toEqual({
      after: { url, subscribedEvents: ["transfer.created"], enabled: true, description: null },
    });
  });

  it("update: before and after", async () => {
    const { apiKey } = await platformWithKey();
    const created = await createEndpoint(apiKey);
    const newUrl = "https://hooks.example.com/v2";
    const response = await call(webhookEndpoint.POST, {
      method: "POST",
      params: { id: created.id },
      apiKey,
      body: { url: newUrl, events: ["transfer.created", "recipient.deleted"], enabled: false },
    });
    expect(response.status).toBe(200);
    const event = await lastAuditEvent({ action: "webhook_endpoint.update", targetId: created.id });
    expect(event.details).toEqual({
      before: { url, subscribedEvents: ["transfer.created"], enabled: true, description: null },
      after: {
        url: newUrl,
        subscribedEvents: ["transfer.created", "recipient.deleted"],
        enabled: false,
        description: null,
      },
    });
  });

  it("delete: what was deleted (it sends nothing from then on)", async () => {
    const { apiKey } = await platformWithKey();
    const created = await createEndpoint(apiKey);
    expect((await call(webhookEndpoint.DELETE, { method: "DELETE", params: { id: created.id }, apiKey })).status).toBe(
      200,
    );
    const event = await lastAuditEvent({ action: "webhook_endpoint.delete", targetId: created.id });
    expect(event.details).toEqual({
      before: { url, subscribedEvents: ["transfer.created"], description: null },
      after: null,
    });
  });

  it("test and retry: the delivery they queued, never its event data", async () => {
    const { apiKey } = await platformWithKey();
    const created = await createEndpoint(apiKey);
    const sent = await call(sendTest.POST, { method: "POST", params: { id: created.id }, apiKey });
    expect(sent.status).toBe(201);
    const test = await lastAuditEvent({ action: "webhook_endpoint.test", targetId: created.id });
    expect(test.details).toEqual({ eventId: sent.body.id, eventType: "webhook.test", webhookEndpointId: created.id });
    const retried = await call(retry.POST, {
      method: "POST",
      params: { id: created.id, eventId: sent.body.id },
      apiKey,
    });
    expect(retried.status).toBe(200);
    const event = await lastAuditEvent({ action: "webhook_delivery.retry", targetId: created.id });
    expect(event.details).toEqual({
      eventId: sent.body.id,
      eventType: "webhook.test",
      webhookEndpointId: created.id,
      after: { status: "pending", nextAttemptAt: retried.body.nextAttemptAt },
    });
  });
});
