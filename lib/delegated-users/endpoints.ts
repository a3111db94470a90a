// Endpoint definitions of this resource: each is used by its route file and by the OpenAPI document.
import { endpoint } from "@/lib/http/endpoint";
import {
  createDelegatedUserInput,
  delegatedUserPageSchema,
  delegatedUserParams,
  delegatedUserQuery,
  delegatedUserSchema,
} from "@/lib/delegated-users/schemas";

const tag = "Delegated users";

export const createDelegatedUserEndpoint = endpoint({
  method: "POST",
  path: "/v1/delegated_users",
  tag,
  summary: "Create a delegated user",
  description: "`externalId` is trimmed and unique per account: a duplicate answers 409 `err_conflict`.",
  auth: "any",
  permission: "delegated_users:write",
  body: createDelegatedUserInput,
  response: delegatedUserSchema,
  status: 201,
  action: "delegated_user.create",
  errors: [409],
});

export const listDelegatedUsersEndpoint = endpoint({
  method: "GET",
  path: "/v1/delegated_users",
  tag,
  summary: "List the account's delegated users",
  description: "Cursor-paginated, newest first by default; `externalId` narrows it to an exact match.",
  auth: "any",
  permission: "delegated_users:read",
  query: delegatedUserQuery,
  response: delegatedUserPageSchema,
  errors: [],
});

export const getDelegatedUserEndpoint = endpoint({
  method: "GET",
  path: "/v1/delegated_users/{id}",
  tag,
  summary: "Get a delegated user",
  auth: "any",
  permission: "delegated_users:read",
  params: delegatedUserParams,
  response: delegatedUserSchema,
  errors: [],
});
