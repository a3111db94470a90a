import { endpointGroup } from "@/lib/contract/endpoint";
import {
  createDelegatedUserInput,
  delegatedUserPageSchema,
  delegatedUserParams,
  delegatedUserQuery,
  delegatedUserSchema,
} from "@/lib/delegated-users/schemas";

const define = endpointGroup({ tag: "Delegated users", auth: "any" });

export const createDelegatedUserEndpoint = define("POST /v1/delegated_users", {
  summary: "Create a delegated user",
  description: "`externalId` is trimmed and unique per account: a duplicate answers 409 `err_conflict`.",
  permission: "delegated_users:write",
  body: createDelegatedUserInput,
  response: delegatedUserSchema,
  status: 201,
  action: "delegated_user.create",
  errors: [409],
});

export const listDelegatedUsersEndpoint = define("GET /v1/delegated_users", {
  summary: "List the account's delegated users",
  description: "Cursor-paginated, newest first by default; `externalId` narrows it to an exact match.",
  permission: "delegated_users:read",
  query: delegatedUserQuery,
  response: delegatedUserPageSchema,
});

export const getDelegatedUserEndpoint = define("GET /v1/delegated_users/{id}", {
  summary: "Get a delegated user",
  permission: "delegated_users:read",
  params: delegatedUserParams,
  response: delegatedUserSchema,
});
