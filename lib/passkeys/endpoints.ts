import { z } from "zod";
import { endpointGroup } from "@/lib/contract/endpoint";
import {
  passkeyAuthenticationOptionsSchema,
  passkeyParams,
  passkeyRegistrationOptionsSchema,
  passkeySchema,
  registerPasskeyInput,
  signInPasskeyOptionsInput,
} from "@/lib/passkeys/schemas";

const tag = "Employees and sessions";
/** What a signed-in employee does with their own passkeys, whatever their role. */
const defineOwn = endpointGroup({ tag, auth: "session", permission: null });
const definePublic = endpointGroup({ tag, auth: "public", permission: null });

const challengeNote =
  "The challenge is single-use and expires after 5 minutes; it is kept in the database, so any instance checks the " +
  "answer. The origin and RP ID are `APP_ORIGIN`'s (else the origin the service was reached at); user verification " +
  "is required.";

export const passkeyRegistrationOptionsEndpoint = defineOwn("POST /v1/employees/passkeys/options", {
  action: "employee.passkey_options",
  summary: "Options to register a passkey (extension)",
  description:
    "For `navigator.credentials.create()` (or `startRegistration()` of @simplewebauthn/browser): a discoverable " +
    "credential, no attestation, the employee's passkeys excluded. " +
    challengeNote,
  response: passkeyRegistrationOptionsSchema,
});

export const registerPasskeyEndpoint = defineOwn("POST /v1/employees/passkeys", {
  action: "employee.passkey_register",
  ownTransactions: true, // the challenge is spent whatever follows
  summary: "Register a passkey (extension)",
  description:
    "`response` is the browser's answer to a challenge of POST /v1/employees/passkeys/options. A wrong, expired or " +
    "spent challenge, another origin, or no user verification: 422 `details.response`; a credential already " +
    "registered: 409. Needs `Service-Totp-Code` (or `Service-Passkey-Assertion`).",
  totp: true,
  body: registerPasskeyInput,
  response: passkeySchema,
  status: 201,
  auditDetails: (body: { name: string }) => ({ name: body.name }),
  errors: [409],
});

export const listPasskeysEndpoint = defineOwn("GET /v1/employees/passkeys", {
  summary: "The signed-in employee's passkeys (extension)",
  description: "Oldest first, as a plain array; `lastUsedAt` is null until first use.",
  response: z.array(passkeySchema),
});

export const removePasskeyEndpoint = defineOwn("DELETE /v1/employees/passkeys/{id}", {
  action: "employee.passkey_remove",
  summary: "Remove one of one's own passkeys (extension)",
  description:
    "Answers the passkey removed; another employee's answers 404. Needs `Service-Totp-Code` (or `Service-Passkey-Assertion`).",
  totp: true,
  params: passkeyParams,
  response: passkeySchema,
});

export const signInPasskeyOptionsEndpoint = definePublic("POST /v1/sessions/passkey/options", {
  action: "session.passkey_options",
  summary: "Options to sign in with a passkey as the second factor (extension)",
  description:
    "For `navigator.credentials.get()`; the assertion then goes to POST /v1/sessions as `passkey`, with the e-mail " +
    "and password (a passkey never stands in for the password). The answer names no credential, and is the same " +
    "for every e-mail. At most 60 per client (IPv4 address or IPv6 /64) in 15 minutes: 429 past that. " +
    challengeNote,
  body: signInPasskeyOptionsInput,
  errors: [429],
  response: passkeyAuthenticationOptionsSchema,
  auditDetails: (body: { email: string }) => ({ email: body.email.trim().toLowerCase() }),
});

export const stepUpPasskeyOptionsEndpoint = defineOwn("POST /v1/step_up/passkey/options", {
  action: "session.step_up_passkey_options",
  summary: "Options for a step-up with a passkey (extension)",
  description:
    "For `navigator.credentials.get()` with the signed-in employee's passkeys; the assertion, as base64url of its " +
    "JSON, then goes in `Service-Passkey-Assertion` wherever `Service-Totp-Code` is accepted. No passkey: 409. " +
    challengeNote,
  response: passkeyAuthenticationOptionsSchema,
  errors: [409],
});
