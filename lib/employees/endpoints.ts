import { z } from "zod";
import { endpoint } from "@/lib/http/endpoint";
import {
  acceptInvitationInput,
  changePasswordInput,
  changeRoleInput,
  ownSessionSchema,
  passwordChangedSchema,
  recoveryCodesSchema,
  sessionParams,
  employeeParams,
  employeeSchema,
  invitedEmployeeSchema,
  inviteEmployeeInput,
  sessionSchema,
  setupInput,
  signInInput,
  totpConfirmInput,
  totpConfirmedSchema,
  totpSetupSchema,
} from "@/lib/employees/schemas";

const tag = "Employees and sessions";

export const setupEndpoint = endpoint({
  method: "POST",
  path: "/v1/setup",
  tag,
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
  auth: "public",
  permission: null,
  body: setupInput,
  response: sessionSchema,
  status: 201,
  errors: [403, 409],
});

export const signInEndpoint = endpoint({
  method: "POST",
  path: "/v1/sessions",
  tag,
  action: "session.create",
  ownTransactions: true, // hashes; failures count toward throttling
  summary: "Sign in",
  auditDetails: (body: { email: string }) => ({ email: body.email.trim().toLowerCase() }),
  description:
    "Sets an httpOnly SameSite=Lax session cookie. Once 2FA is on, `totpCode` is required (400 `err_otp_required`); " +
    "a recovery code works in its place once. Each attempt is counted before the password is checked: per (e-mail, client), per client (an IPv4 address or an IPv6 /64) and per e-mail from everywhere (a far higher limit, so a stranger cannot lock an employee out); past a limit 429 with Retry-After, and the password is not checked.",
  auth: "public",
  permission: null,
  body: signInInput,
  response: sessionSchema,
  errors: [401, 429],
});

export const currentSessionEndpoint = endpoint({
  method: "GET",
  path: "/v1/sessions/current",
  tag,
  summary: "Who am I",
  auth: "session",
  permission: null,
  beforeTwoFactor: true,
  response: sessionSchema,
  errors: [],
});

export const signOutEndpoint = endpoint({
  method: "DELETE",
  path: "/v1/sessions/current",
  tag,
  action: "session.delete",
  summary: "Sign out (revokes the session)",
  auth: "session",
  permission: null,
  beforeTwoFactor: true,
  response: z.object({ signedOut: z.literal(true) }).meta({ id: "SignedOut" }),
  errors: [],
});

export const startTotpEndpoint = endpoint({
  method: "POST",
  path: "/v1/employees/totp",
  tag,
  action: "employee.totp_start",
  summary: "Start TOTP enrolment for the signed-in employee",
  description: "Returns a new secret and its otpauth:// URI. Two-factor authentication stays off until confirmed. 409 when already on.",
  auth: "session",
  permission: null,
  beforeTwoFactor: true,
  response: totpSetupSchema,
  errors: [409],
});

export const confirmTotpEndpoint = endpoint({
  method: "POST",
  path: "/v1/employees/totp/confirm",
  tag,
  action: "employee.totp_confirm",
  ownTransactions: true, // wrong codes count toward throttling
  summary: "Confirm TOTP enrolment with a first code",
  description: "Turns two-factor authentication on and returns recovery codes, shown this once.",
  auth: "session",
  permission: null,
  beforeTwoFactor: true,
  body: totpConfirmInput,
  response: totpConfirmedSchema,
  errors: [409, 429],
});

export const listEmployeesEndpoint = endpoint({
  method: "GET",
  path: "/v1/employees",
  tag,
  summary: "List the platform's employees",
  description: "Name, e-mail, status, 2FA status and last login of each, oldest first, as a plain array.",
  auth: "any",
  permission: "employees:read",
  platformWide: true,
  response: z.array(employeeSchema),
  errors: [],
});

export const inviteEmployeeEndpoint = endpoint({
  method: "POST",
  path: "/v1/employees",
  tag,
  summary: "Invite an employee",
  description:
    "Creates the employee with status `invited` and returns the invitation link (valid 7 days), shown only in this " +
    "response: send it to the invitee, who sets a password through POST /v1/employees/invitations/accept. " +
    "E-mail addresses are unique across the service: a taken one answers 409. `role` defaults to `viewer`; another role " +
    "needs the `roles` permission (so a key invites viewers only), `owner` also `owners`. From a session, needs `Service-Totp-Code`.",
  auth: "any",
  permission: "employees:write",
  platformWide: true,
  totp: true,
  body: inviteEmployeeInput,
  response: invitedEmployeeSchema,
  status: 201,
  action: "employee.invite",
  auditDetails: (body: { email: string; role: string }) => ({ email: body.email, role: body.role }),
  errors: [409],
});

export const getEmployeeEndpoint = endpoint({
  method: "GET",
  path: "/v1/employees/{id}",
  tag,
  summary: "Get an employee",
  auth: "any",
  permission: "employees:read",
  platformWide: true,
  params: employeeParams,
  response: employeeSchema,
  errors: [],
});

export const acceptInvitationEndpoint = endpoint({
  method: "POST",
  path: "/v1/employees/invitations/accept",
  tag,
  summary: "Accept an invitation (extension)",
  description:
    "Sets the invited employee's password, activates them and signs them in with a session cookie, as POST /v1/sessions does. " +
    "An unknown, used or expired token answers 404.",
  auth: "public",
  permission: null,
  body: acceptInvitationInput,
  response: sessionSchema,
  action: "employee.accept_invitation",
  ownTransactions: true, // hashes the password
  errors: [404],
});

export const changeRoleEndpoint = endpoint({
  method: "POST",
  path: "/v1/employees/{id}",
  tag,
  action: "employee.change_role",
  summary: "Change an employee's role (extension)",
  description:
    "Takes effect on the employee's next request. Making or removing an owner needs `owners` (owners only); the last " +
    "active owner cannot be demoted (409). A deactivated employee answers 409. From a session, needs `Service-Totp-Code`.",
  auth: "any",
  permission: "roles",
  platformWide: true,
  totp: true,
  params: employeeParams,
  body: changeRoleInput,
  response: employeeSchema,
  auditDetails: (body: { role: string }) => ({ role: body.role }),
  errors: [409],
});

export const deactivateEmployeeEndpoint = endpoint({
  method: "DELETE",
  path: "/v1/employees/{id}",
  tag,
  action: "employee.deactivate",
  summary: "Deactivate an employee (extension)",
  description:
    "Offboarding: `status: deactivated`; every session of theirs ends at once, a pending invitation link stops working, " +
    "and sign-in answers 401 as for a wrong password. Deactivating an owner needs `owners`; the last active owner " +
    "cannot be deactivated (409). Deactivating twice: 200, unchanged. From a session, needs `Service-Totp-Code`.",
  auth: "any",
  permission: "employees:write",
  platformWide: true,
  totp: true,
  params: employeeParams,
  response: employeeSchema,
  errors: [409],
});

export const resetTwoFactorEndpoint = endpoint({
  method: "DELETE",
  path: "/v1/employees/{id}/totp",
  tag,
  action: "employee.totp_reset",
  summary: "Turn off another employee's two-factor authentication (extension)",
  description:
    "For a lost authenticator: their secret and recovery codes are deleted and their sessions end; they sign in with " +
    "their password and enrol again. Not for oneself (403). An owner's needs `owners`. Needs `Service-Totp-Code`.",
  auth: "session",
  permission: "employees:write",
  platformWide: true,
  totp: true,
  params: employeeParams,
  response: employeeSchema,
  errors: [409],
});

export const changePasswordEndpoint = endpoint({
  method: "POST",
  path: "/v1/employees/me/password",
  tag,
  action: "employee.change_password",
  ownTransactions: true, // hashes; wrong current passwords count toward throttling
  summary: "Change one's own password (extension)",
  description:
    "Needs the current password (422 `details.currentPassword` when wrong; repeated failures answer 429). Ends every " +
    "other session of the employee; this one stays signed in.",
  auth: "session",
  permission: null,
  body: changePasswordInput,
  response: passwordChangedSchema,
  errors: [429],
});

export const listOwnSessionsEndpoint = endpoint({
  method: "GET",
  path: "/v1/sessions",
  tag,
  summary: "The signed-in employee's own live sessions (extension)",
  description: "Newest first, as a plain array; `current` marks the one this request used.",
  auth: "session",
  permission: null,
  response: z.array(ownSessionSchema),
  errors: [],
});

export const endOwnSessionEndpoint = endpoint({
  method: "DELETE",
  path: "/v1/sessions/{id}",
  tag,
  action: "session.end",
  summary: "End one of one's own sessions (extension)",
  description: "Signs that browser out on its next request. Another employee's session answers 404.",
  auth: "session",
  permission: null,
  params: sessionParams,
  response: ownSessionSchema,
  errors: [],
});

export const regenerateRecoveryCodesEndpoint = endpoint({
  method: "POST",
  path: "/v1/employees/totp/recovery_codes",
  tag,
  action: "employee.recovery_codes_regenerate",
  summary: "New recovery codes for the signed-in employee (extension)",
  description: "Ten new single-use codes, shown once; the old ones stop working. Needs `Service-Totp-Code`.",
  auth: "session",
  permission: null,
  totp: true,
  response: recoveryCodesSchema,
  errors: [],
});
