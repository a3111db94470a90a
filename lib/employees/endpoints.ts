import { z } from "zod";
import { endpoint } from "@/lib/http/route";
import {
  acceptInvitationInput,
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
  summary: "First run: create the platform account and its first employee",
  auditDetails: (body: { email: string }) => ({ email: body.email }),
  description: "Only while no employee exists (afterwards 409). Signs the new employee in with a session cookie.",
  auth: "public",
  body: setupInput,
  response: sessionSchema,
  status: 201,
  errors: [409],
});

export const signInEndpoint = endpoint({
  method: "POST",
  path: "/v1/sessions",
  tag,
  action: "session.create",
  summary: "Sign in",
  auditDetails: (body: { email: string }) => ({ email: body.email.trim().toLowerCase() }),
  description:
    "Sets an httpOnly SameSite=Lax session cookie. Once 2FA is on, `totpCode` is required (400 `err_otp_required`); " +
    "a recovery code works in its place once. Repeated failures per e-mail and per IP answer 429.",
  auth: "public",
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
  response: totpSetupSchema,
  errors: [409],
});

export const confirmTotpEndpoint = endpoint({
  method: "POST",
  path: "/v1/employees/totp/confirm",
  tag,
  action: "employee.totp_confirm",
  summary: "Confirm TOTP enrolment with a first code",
  description: "Turns two-factor authentication on and returns recovery codes, shown this once.",
  auth: "session",
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
    "E-mail addresses are unique across the service: a taken one answers 409.",
  auth: "any",
  body: inviteEmployeeInput,
  response: invitedEmployeeSchema,
  status: 201,
  action: "employee.invite",
  auditDetails: (body: { email: string }) => ({ email: body.email }),
  errors: [409],
});

export const getEmployeeEndpoint = endpoint({
  method: "GET",
  path: "/v1/employees/{id}",
  tag,
  summary: "Get an employee",
  auth: "any",
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
  body: acceptInvitationInput,
  response: sessionSchema,
  action: "employee.accept_invitation",
  errors: [404],
});
