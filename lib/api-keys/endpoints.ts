import { z } from "zod";
import { endpointGroup } from "@/lib/contract/endpoint";
import {
  apiKeyCreatedSchema,
  apiKeyParams,
  apiKeySchema,
  apiKeyUsageSchema,
  issueApiKeyInput,
  rollApiKeyInput,
  updateApiKeyInput,
  leakAnswerSchema,
  leakReportSchema,
} from "@/lib/api-keys/schemas";

const define = endpointGroup({ tag: "API keys", auth: "any" });

export const listApiKeysEndpoint = define("GET /v1/api_keys", {
  summary: "List the account's API keys",
  permission: "api_keys:read",
  response: z.array(apiKeySchema),
});

export const issueApiKeyEndpoint = define("POST /v1/api_keys", {
  secretResponse: true,
  action: "api_key.issue",
  summary: "Issue an API key",
  description:
    "The `secret` is in this response only. From an employee session, needs `Service-Totp-Code`. `permissions` left out: " +
    "every default key permission the issuer holds; named: each must be one the issuer holds (no escalation), else 403.",
  permission: "api_keys:write",
  totp: true,
  body: issueApiKeyInput,
  response: apiKeyCreatedSchema,
  status: 201,
});

export const updateApiKeyEndpoint = define("POST /v1/api_keys/{key}", {
  action: "api_key.update_allowlist",
  summary: "Change a key's CIDR allowlist or rate limit",
  description:
    "`cidrAllowlist` replaces the allowlist; `rateLimit` sets the key's own limit (null: the platform's default); " +
    "what is left out stays. From an employee session, needs `Service-Totp-Code`. A revoked key answers 409. The caller must hold every permission the key holds.",
  permission: "api_keys:write",
  totp: true,
  params: apiKeyParams,
  body: updateApiKeyInput,
  response: apiKeySchema,
  errors: [409],
});

export const revokeApiKeyEndpoint = define("DELETE /v1/api_keys/{key}", {
  action: "api_key.revoke",
  summary: "Revoke an API key",
  description:
    "The key stops authenticating at once. Idempotent. A key revoking a key must hold every permission that key holds (403 " +
    "`err_forbidden` naming the first it lacks): a weaker key cannot switch off a stronger one. An employee needs only " +
    "`api_keys:write` (revoking is how staff stop a leak). From an employee session, needs `Service-Totp-Code`.",
  permission: "api_keys:write",
  totp: true,
  params: apiKeyParams,
  response: apiKeySchema,
});

export const rollApiKeyEndpoint = define("POST /v1/api_keys/{key}/roll", {
  secretResponse: true,
  action: "api_key.roll",
  summary: "Roll a key: a new secret, the old one working for an overlap",
  description:
    "Issues a new key (201, `secret` shown once) with the old key's name, permissions and allowlist, and makes the old " +
    "secret expire `overlapSeconds` from now (default 0: at once; never later than it would have). The caller must hold " +
    "every permission the key holds. A revoked or expired key answers 409. A key is rolled once: while its overlap runs, a " +
    "second roll (or a concurrent one) answers 409 `err_conflict` naming the successor, so one roll never makes two live " +
    "secrets. From an employee session, needs `Service-Totp-Code`.",
  permission: "api_keys:write",
  totp: true,
  params: apiKeyParams,
  body: rollApiKeyInput,
  response: apiKeyCreatedSchema,
  status: 201,
  errors: [409],
});

export const apiKeyUsageEndpoint = define("GET /v1/api_keys/{key}/usage", {
  summary: "A key's requests per day for the last 30 days, by outcome",
  description:
    "Requests made with the key per UTC day, by outcome. Each server process adds its counts every 5 seconds, so the " +
    "latest requests may be missing for that long. A 5xx answer is not counted: it is the service's failure, not the " +
    "caller's. Another account's key answers 404.",
  permission: "api_keys:read",
  params: apiKeyParams,
  response: apiKeyUsageSchema,
});

/** Called by a secret-scanning partner program (GitHub's), which signs its reports instead of holding a credential. */
const defineScanner = endpointGroup({ tag: "API keys", auth: "public", permission: null });

export const leakReportEndpoint = defineScanner("POST /v1/secret_scanning/reports", {
  action: "secret_scanning.report",
  // Not `secretResponse`: the answer repeats only the tokens the caller sent (GitHub's format), and a
  // public route keeps nothing for Idempotency-Key replay.
  summary: "Report leaked keys (GitHub's secret-scanning partner format)",
  description:
    'For GitHub\'s secret-scanning partner program (docs/operations.md, "Secret scanning"). The body, a JSON array of ' +
    "`{ token, type, url, source }` (at most 1000), is signed: `Github-Public-Key-Identifier` names one of the keys in " +
    "`SECRET_SCANNING_PUBLIC_KEYS` and `Github-Public-Key-Signature` is the base64 DER ECDSA P-256 SHA-256 signature of " +
    "the exact body bytes; missing or wrong: 401, checked before the body is read as JSON. A malformed or oversized " +
    "report (over 1 MiB) answers 400. Each token that is a live key is revoked at once (the key's `leak` says where it " +
    "was found), audited as `api_key.leaked` (never the token) and announced by the `api_key.leaked` event. The answer " +
    "labels each token in order: `true_positive` for a key revoked now, or already revoked by a report with the same " +
    "`url` (a report sent again); `false_positive` for anything else (another platform's token, an unknown, revoked or " +
    "expired key), without telling which. 404 while `SECRET_SCANNING_PUBLIC_KEYS` is unset.",
  signedBody: leakReportSchema,
  response: leakAnswerSchema,
  errors: [400, 401, 404],
});
