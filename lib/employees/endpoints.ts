import { z } from "zod";
import { endpoint } from "@/lib/http/route";
import {
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
  summary: "First run: create the platform account and its first employee",
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
  summary: "Sign in",
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
  summary: "Sign out (revokes the session)",
  auth: "session",
  response: z.object({ signedOut: z.literal(true) }).meta({ id: "SignedOut" }),
  errors: [],
});

export const startTotpEndpoint = endpoint({
  method: "POST",
  path: "/v1/employees/totp",
  tag,
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
  summary: "Confirm TOTP enrolment with a first code",
  description: "Turns two-factor authentication on and returns recovery codes, shown this once.",
  auth: "session",
  body: totpConfirmInput,
  response: totpConfirmedSchema,
  errors: [409, 429],
});
