import { z } from "zod";
import { endpointGroup } from "@/lib/contract/endpoint";
import {
  acceptInvitationInput,
  acceptPasswordResetInput,
  passwordResetAcceptedSchema,
  passwordResetLinkSchema,
  changePasswordInput,
  changeRoleInput,
  deactivatedEmployeeSchema,
  deactivateEmployeeQuery,
  employeeCredentialsSchema,
  ownSessionSchema,
  passwordChangedSchema,
  recoveryCodesSchema,
  sessionParams,
  employeeParams,
  employeeSchema,
  invitedEmployeeSchema,
  invitationAcceptedSchema,
  inviteEmployeeInput,
  sessionSchema,
  setupInput,
  signInInput,
  totpConfirmInput,
  totpConfirmedSchema,
  totpSetupSchema,
  totpStartInput,
} from "@/lib/employees/schemas";

const tag = "Employees and sessions";
/** Open to anyone: the first run, signing in, accepting an invitation. */
const definePublic = endpointGroup({ tag, auth: "public", permission: null });
/** What a signed-in employee does for themselves, whatever their role. */
const defineOwn = endpointGroup({ tag, auth: "session", permission: null });
/** Managing the platform's staff. */
const defineStaff = endpointGroup({ tag, auth: "any", platformWide: true });

export const setupEndpoint = definePublic("POST /v1/setup", {
  action: "platform.setup",
  ownTransactions: true, // hashes the password
  summary: "First run: create the platform account and its first employee",
  auditDetails: (body: { email: string }) => ({ email: body.email }),
  description:
    "Only while no employee exists (afterwards 409, whatever the token). Needs `setupToken`: the operator's " +
    "`SETUP_TOKEN`, or, when that is unset, the token the server generated at start and printed to its log with " +
    "a setup link (`/setup?token=...`). A missing token is a validation error like any other field (422, " +
    "`details.setupToken`); a wrong one answers 403 `err_forbidden` with `details.setupToken` and nothing else " +
    "(compared in constant time, before the password is hashed). Signs the new employee in with a session cookie.",
  body: setupInput,
  response: sessionSchema,
  status: 201,
  errors: [403, 409],
});

export const signInEndpoint = definePublic("POST /v1/sessions", {
  action: "session.create",
  ownTransactions: true, // hashes; failures count toward throttling
  summary: "Sign in",
  auditDetails: (body: { email: string }) => ({ email: body.email.trim().toLowerCase() }),
  description:
    "Sets an httpOnly SameSite=Lax session cookie. Once 2FA is on, `totpCode` is required (400 `err_otp_required`); " +
    "a recovery code works in its place once, and a passkey's assertion (`passkey`, for a challenge of POST /v1/sessions/passkey/options) " +
    "in place of either (refused: 401; it never stands in for the password). Each attempt is counted before the password is checked: per (e-mail, client), per client (an IPv4 address or an IPv6 /64) and per e-mail from everywhere (a far higher limit, so a stranger cannot lock an employee out); past a limit 429 with Retry-After, and the password is not checked. " +
    "The code (TOTP or recovery) or passkey is counted the same way before it is checked: at most 5 wrong ones per employee in 5 minutes, shared with step-up. " +
    "When the platform enforces single sign-on, a right password answers 403 `err_sso_required` for everyone but owners (their break-glass).",
  body: signInInput,
  response: sessionSchema,
  errors: [401, 403, 429],
});

export const currentSessionEndpoint = defineOwn("GET /v1/sessions/current", {
  summary: "Who am I",
  beforeTwoFactor: true,
  response: sessionSchema,
});

export const signOutEndpoint = defineOwn("DELETE /v1/sessions/current", {
  action: "session.delete",
  summary: "Sign out (revokes the session)",
  beforeTwoFactor: true,
  response: z.object({ signedOut: z.literal(true) }).meta({ id: "SignedOut" }),
});

export const startTotpEndpoint = defineOwn("POST /v1/employees/totp", {
  secretResponse: true,
  action: "employee.totp_start",
  ownTransactions: true, // hashes the password; wrong ones count toward throttling
  summary: "Start TOTP enrolment for the signed-in employee",
  description:
    "Needs `password`, the employee's current password, so a stolen session alone cannot enrol (or, after an admin's " +
    "reset, re-enrol) an authenticator of its own: missing, 422; wrong, 403 `err_password_incorrect`. Every attempt " +
    "is counted by the sign-in throttle for the employee's e-mail and this client before the password is checked " +
    "(a right one is given back); past a limit 429 with Retry-After, and the password is not checked. Returns a new " +
    "secret and its otpauth:// URI. Two-factor authentication stays off until confirmed. 409 when already on.",
  beforeTwoFactor: true,
  body: totpStartInput,
  response: totpSetupSchema,
  errors: [403, 409, 429],
});

export const confirmTotpEndpoint = defineOwn("POST /v1/employees/totp/confirm", {
  secretResponse: true,
  action: "employee.totp_confirm",
  ownTransactions: true, // wrong codes count toward throttling
  summary: "Confirm TOTP enrolment with a first code",
  description:
    "Turns two-factor authentication on and returns recovery codes, shown this once. Every code is counted before it " +
    "is checked (the employee's one-time-code counter, shared with sign-in and `Service-Totp-Code`): at most 5 wrong " +
    "codes in 5 minutes are checked, however many arrive at once; the rest answer 429 with Retry-After.",
  beforeTwoFactor: true,
  body: totpConfirmInput,
  response: totpConfirmedSchema,
  errors: [409, 429],
});

export const listEmployeesEndpoint = defineStaff("GET /v1/employees", {
  summary: "List the platform's employees",
  description: "Name, e-mail, status, 2FA status and last login of each, oldest first, as a plain array.",
  permission: "employees:read",
  response: z.array(employeeSchema),
});

export const inviteEmployeeEndpoint = defineStaff("POST /v1/employees", {
  secretResponse: true,
  summary: "Invite an employee",
  description:
    "Creates the employee with status `invited` and returns the invitation link (valid 7 days), shown only in this " +
    "response: send it to the invitee, who sets a password through POST /v1/employees/invitations/accept. " +
    "E-mail addresses are unique across the service: a taken one answers 409. `role` defaults to `viewer`; another role " +
    "needs the `roles` permission (so a key invites viewers only), `owner` also `owners`. From a session, needs `Service-Totp-Code`.\n\n" +
    "When the service sends e-mail (`SMTP_URL`), the link is also e-mailed to the invitee once the invitation is " +
    "saved, and `emailed` says whether that worked; a failed send does not fail the request.",
  permission: "employees:write",
  totp: true,
  ownTransactions: true, // e-mails the link after the invitation commits
  body: inviteEmployeeInput,
  response: invitedEmployeeSchema,
  status: 201,
  action: "employee.invite",
  auditDetails: (body: { email: string; role: string }) => ({ email: body.email, role: body.role }),
  errors: [409],
});

export const getEmployeeEndpoint = defineStaff("GET /v1/employees/{id}", {
  summary: "Get an employee",
  permission: "employees:read",
  params: employeeParams,
  response: employeeSchema,
});

export const acceptInvitationEndpoint = definePublic("POST /v1/employees/invitations/accept", {
  summary: "Accept an invitation (extension)",
  description:
    "Sets the invited employee's password, activates them and signs them in with a session cookie, as POST /v1/sessions does " +
    '(`signIn: "password"`). Where the platform requires single sign-on and the employee is not an owner, no password is ' +
    'set and no session made: the answer is `{ signIn: "sso" }` and they sign in through the identity provider. ' +
    "An unknown, used or expired token, or one issued before the employee's role or status changed, answers 404.",
  body: acceptInvitationInput,
  response: invitationAcceptedSchema,
  action: "employee.accept_invitation",
  ownTransactions: true, // hashes the password
  errors: [404],
});

export const changeRoleEndpoint = defineStaff("POST /v1/employees/{id}", {
  action: "employee.change_role",
  summary: "Change an employee's role (extension)",
  description:
    "Takes effect on the employee's next request. Making or removing an owner needs `owners` (owners only); the last " +
    "active owner cannot be demoted (409). A deactivated employee answers 409. From a session, needs `Service-Totp-Code`.",
  permission: "roles",
  totp: true,
  params: employeeParams,
  body: changeRoleInput,
  response: employeeSchema,
  auditDetails: (body: { role: string }) => ({ role: body.role }),
  errors: [409],
});

export const deactivateEmployeeEndpoint = defineStaff("DELETE /v1/employees/{id}", {
  action: "employee.deactivate",
  summary: "Deactivate an employee (extension)",
  description:
    "Offboarding: `status: deactivated`; every session of theirs ends at once, a pending invitation link stops working, " +
    "and sign-in answers 401 as for a wrong password. Deactivating an owner needs `owners`; the last active owner " +
    "cannot be deactivated (409). Deactivating twice: 200, unchanged. From a session, needs `Service-Totp-Code`.\n\n" +
    "Answers the employee with `createdCredentials`: the API keys (not revoked, not expired) and webhook endpoints (not " +
    "deleted, enabled) they created in any account of the platform, and those created by such keys, at any depth. With " +
    "`?revokeCredentials=true` those keys are revoked (each announced by `api_key.revoked`) and those endpoints disabled, " +
    "in the same transaction as the deactivation; the answer and the audit record's `details` name them. This needs " +
    "`api_keys:write` and `webhooks:write`, and from an API key every permission of each key it revokes (403 naming the " +
    "first missing, nothing changed). On an employee already deactivated it still revokes what is left. Without it nothing " +
    "is revoked; GET /v1/employees/{id}/credentials shows the same lists beforehand.",
  permission: "employees:write",
  totp: true,
  params: employeeParams,
  query: deactivateEmployeeQuery,
  response: deactivatedEmployeeSchema,
  errors: [409],
});

export const employeeCredentialsEndpoint = defineStaff("GET /v1/employees/{id}/credentials", {
  summary: "The credentials an employee created that still work (extension)",
  description:
    "What DELETE /v1/employees/{id} would list in `createdCredentials`, with what people recognise them by: API keys (not " +
    "revoked, not expired) and webhook endpoints (not deleted, enabled) the employee created in any account of the " +
    "platform, and those created by such keys, at any depth; oldest first. Derived from keys and endpoints, so it also " +
    "needs `api_keys:read` and `webhooks:read` (403 naming the one missing).",
  permission: "employees:read",
  params: employeeParams,
  response: employeeCredentialsSchema,
});

export const resetTwoFactorEndpoint = defineStaff("DELETE /v1/employees/{id}/totp", {
  action: "employee.totp_reset",
  summary: "Turn off another employee's two-factor authentication (extension)",
  description:
    "For a lost authenticator: their secret and recovery codes are deleted and their sessions end; they sign in with " +
    "their password and enrol again. Not for oneself (403). An owner's needs `owners`. Needs `Service-Totp-Code`.",
  auth: "session",
  permission: "employees:write",
  totp: true,
  params: employeeParams,
  response: employeeSchema,
  errors: [409],
});

export const changePasswordEndpoint = defineOwn("POST /v1/employees/me/password", {
  action: "employee.change_password",
  ownTransactions: true, // hashes; wrong current passwords count toward throttling
  summary: "Change one's own password (extension)",
  description:
    "Needs the current password (422 `details.currentPassword` when wrong; repeated failures answer 429). Ends every " +
    "other session of the employee; this one stays signed in.",
  body: changePasswordInput,
  response: passwordChangedSchema,
  errors: [429],
});

export const listOwnSessionsEndpoint = defineOwn("GET /v1/sessions", {
  summary: "The signed-in employee's own live sessions (extension)",
  description: "Newest first, as a plain array; `current` marks the one this request used.",
  response: z.array(ownSessionSchema),
});

export const endOwnSessionEndpoint = defineOwn("DELETE /v1/sessions/{id}", {
  action: "session.end",
  summary: "End one of one's own sessions (extension)",
  description: "Signs that browser out on its next request. Another employee's session answers 404.",
  params: sessionParams,
  response: ownSessionSchema,
});

export const regenerateRecoveryCodesEndpoint = defineOwn("POST /v1/employees/totp/recovery_codes", {
  secretResponse: true,
  action: "employee.recovery_codes_regenerate",
  summary: "New recovery codes for the signed-in employee (extension)",
  description: "Ten new single-use codes, shown once; the old ones stop working. Needs `Service-Totp-Code`.",
  totp: true,
  response: recoveryCodesSchema,
});

export const reissueInvitationEndpoint = defineStaff("POST /v1/employees/{id}/invitation", {
  secretResponse: true,
  action: "employee.invitation_reissue",
  ownTransactions: true, // e-mails the link after the change commits
  summary: "A new invitation link for an invited employee (extension)",
  description:
    "For an employee still `invited` whose link was lost or expired: a new link, valid 7 days, shown only in this " +
    "response (and e-mailed when the service sends e-mail, as for POST /v1/employees); the previous link stops " +
    "working. Needs what inviting with the employee's role needs (`roles` for any role but viewer, `owner` also " +
    "`owners`). An active or deactivated employee answers 409. From a session, needs `Service-Totp-Code`.",
  permission: "employees:write",
  totp: true,
  params: employeeParams,
  response: invitedEmployeeSchema,
  status: 201,
  errors: [409],
});

export const createPasswordResetEndpoint = defineStaff("POST /v1/employees/{id}/password_reset", {
  secretResponse: true,
  action: "employee.password_reset_create",
  ownTransactions: true, // e-mails the link after the change commits
  summary: "A password-reset link for an employee (extension)",
  description:
    "For an active employee who lost their password, without e-mail: a link to `/password-reset?token=...`, valid " +
    "24 hours and once, shown only in this response (and e-mailed to the employee when the service sends e-mail; " +
    "`emailed` says whether that worked). A newer link replaces an older one. Using it (POST " +
    "/v1/employees/password_reset/accept) sets their password and ends all their sessions; their second factor stays. " +
    "Not for oneself (403: change it with the current one). An owner's needs `owners`. An invited employee (send a " +
    "new invitation link) or a deactivated one answers 409. Employees only; needs `Service-Totp-Code`.",
  auth: "session",
  permission: "employees:write",
  totp: true,
  params: employeeParams,
  response: passwordResetLinkSchema,
  status: 201,
  errors: [409],
});

export const acceptPasswordResetEndpoint = definePublic("POST /v1/employees/password_reset/accept", {
  summary: "Set a new password with a reset link (extension)",
  description:
    "Sets the employee's password and ends every session of theirs; they then sign in with POST /v1/sessions (with " +
    'their second factor, when they have one), or through single sign-on where their platform requires it (`signIn: "sso"`). ' +
    "An unknown, used or expired token, one of an employee no longer active, or one issued before the employee's " +
    "role, e-mail or password changed, answers 404.",
  body: acceptPasswordResetInput,
  response: passwordResetAcceptedSchema,
  action: "employee.password_reset_accept",
  ownTransactions: true, // hashes the password
  errors: [404],
});
