import { z } from "zod";
import { defineSandbox, endpointGroup } from "@/lib/contract/endpoint";
import { pageQuerySchema } from "@/lib/contract/pagination";
import {
  accountPageSchema,
  accountParams,
  accountSchema,
  createSandboxAccountInput,
  createSandboxPlatformInput,
  featureFlagsInput,
  featureFlagsSchema,
  sandboxPlatformSchema,
  updateAccountInput,
} from "@/lib/accounts/schemas";

const define = endpointGroup({ tag: "Accounts", auth: "any" });
const defineFeatureFlags = endpointGroup({ tag: "Feature flags", auth: "any" });

export const listAccountsEndpoint = define("GET /v1/accounts", {
  summary: "List the platform's accounts",
  description: "The platform's own account and every account under it, oldest first, as a plain array.",
  permission: "accounts:read",
  platformWide: true,
  response: z.array(accountSchema),
});

export const pageAccountsEndpoint = define("GET /v1/accounts/paginate", {
  summary: "List the platform's accounts, a cursor page at a time",
  permission: "accounts:read",
  platformWide: true,
  query: pageQuerySchema,
  response: accountPageSchema,
});

export const updateAccountEndpoint = define("POST /v1/accounts/{accountId}", {
  summary: "Set an account's feature-flag preferences",
  description:
    "Merges the given flags into the account's map; flags left out keep their value. Any account of the platform; " +
    "another platform's account answers 404. An unknown flag or value answers 422 naming it (`featureFlags.foo`).",
  permission: "feature_flags:write",
  params: accountParams,
  body: updateAccountInput,
  response: accountSchema,
  action: "account.update_feature_flags",
  errors: [409],
});

export const readFeatureFlagsEndpoint = defineFeatureFlags("GET /v1/feature_flags", {
  summary: "The account's feature-flag preferences",
  description: "Of the caller's account, or of the account named by `Service-Account-Id`.",
  permission: "feature_flags:read",
  response: featureFlagsSchema,
  errors: [404],
});

export const updateFeatureFlagsEndpoint = defineFeatureFlags("POST /v1/feature_flags", {
  summary: "Set the account's feature-flag preferences",
  description:
    'The body is the flag map itself (`{ "named": "prefer" }`); given flags are merged into the stored map and the whole ' +
    "map is returned. Acts for `Service-Account-Id` when sent. An unknown flag or value answers 422 naming it.",
  permission: "feature_flags:write",
  body: featureFlagsInput,
  response: featureFlagsSchema,
  action: "feature_flags.update",
  errors: [404, 409],
});

export const createSandboxPlatformEndpoint = defineSandbox("POST /v1/sandbox/platforms", {
  secretResponse: true,
  summary: "Create a separate platform (tenant) with a working API key",
  description:
    "For testing isolation: the new platform sees none of the caller's data and the caller none of its. " +
    "The key expires in 90 days; its `secret` is shown only in this response.",
  platformWide: true,
  body: createSandboxPlatformInput,
  response: sandboxPlatformSchema,
  status: 201,
  action: "sandbox.create_platform",
});

export const createSandboxAccountEndpoint = defineSandbox("POST /v1/sandbox/accounts", {
  summary: "Create an account under the caller's platform",
  description: "Its parent is the caller's account (or the one named by `Service-Account-Id`).",
  platformWide: true,
  body: createSandboxAccountInput,
  response: accountSchema,
  status: 201,
  action: "sandbox.create_account",
  errors: [404],
});
