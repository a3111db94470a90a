// Endpoint definitions of this resource: each is used by its route file and by the OpenAPI document.
import { endpoint } from "@/lib/http/endpoint";
import { createTransferInput, transferParams, transferSchema } from "@/lib/transfers/schemas";

export const sandboxCreateTransferEndpoint = endpoint({
  method: "POST",
  path: "/v1/sandbox/transfers",
  tag: "Sandbox",
  summary: "Create a transfer to a saved recipient (sandbox)",
  description:
    "Creates a `pending` transfer. A `recipientId` the account does not own (or that does not exist) answers 404 " +
    "\"Recipient not found\"; a deleted recipient answers 409.",
  auth: "any",
  permission: "sandbox:write",
  sandbox: true,
  body: createTransferInput,
  response: transferSchema,
  status: 201,
  action: "sandbox.transfer.create",
  errors: [404, 409],
});

export const getTransferEndpoint = endpoint({
  method: "GET",
  path: "/v1/transfers/{id}",
  tag: "Transfers",
  summary: "Get a transfer",
  auth: "any",
  permission: "transfers:read",
  params: transferParams,
  response: transferSchema,
  errors: [],
});
