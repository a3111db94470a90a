import { z } from "zod";
import { endpoint } from "@/lib/http/route";
import { apiKeyCreatedSchema, apiKeyParams, apiKeySchema, issueApiKeyInput, updateApiKeyInput } from "@/lib/api-keys/schemas";

const tag = "API keys";

export const listApiKeysEndpoint = endpoint({
  method: "GET",
  path: "/v1/api_keys",
  tag,
  summary: "List the account's API keys",
  auth: "any",
  response: z.array(apiKeySchema),
  errors: [],
});

export const issueApiKeyEndpoint = endpoint({
  method: "POST",
  path: "/v1/api_keys",
  tag,
  action: "api_key.issue",
  summary: "Issue an API key",
  description: "The `secret` is in this response only. From an employee session, needs `Service-Totp-Code`.",
  auth: "any",
  totp: true,
  body: issueApiKeyInput,
  response: apiKeyCreatedSchema,
  status: 201,
  errors: [],
});

export const updateApiKeyEndpoint = endpoint({
  method: "POST",
  path: "/v1/api_keys/{key}",
  tag,
  action: "api_key.update_allowlist",
  summary: "Replace a key's CIDR allowlist",
  description: "From an employee session, needs `Service-Totp-Code`. A revoked key answers 409.",
  auth: "any",
  totp: true,
  params: apiKeyParams,
  body: updateApiKeyInput,
  response: apiKeySchema,
  errors: [409],
});

export const revokeApiKeyEndpoint = endpoint({
  method: "DELETE",
  path: "/v1/api_keys/{key}",
  tag,
  action: "api_key.revoke",
  summary: "Revoke an API key",
  description: "The key stops authenticating at once. Idempotent. From an employee session, needs `Service-Totp-Code`.",
  auth: "any",
  totp: true,
  params: apiKeyParams,
  response: apiKeySchema,
  errors: [],
});
