// Endpoint definitions of this resource: each is used by its route file and by the OpenAPI document.
import { endpoint } from "@/lib/http/endpoint";
import { pageQuerySchema } from "@/lib/http/pagination";
import { createRecipientInput, recipientPageSchema, recipientParams, recipientSchema } from "@/lib/recipients/schemas";

export const listRecipientsEndpoint = endpoint({
  method: "GET",
  path: "/v1/recipients",
  tag: "Recipients",
  summary: "List the account's saved recipients",
  description:
    "Cursor-paginated, newest first by default. Deleted recipients answer 404 everywhere, so they are not listed. " +
    "An extension the dashboard uses. A `next` cursor that this API did not issue, or one issued for the other " +
    "`order`, answers 400.",
  auth: "any",
  permission: "recipients:read",
  query: pageQuerySchema,
  response: recipientPageSchema,
  errors: [],
});

export const deleteRecipientEndpoint = endpoint({
  method: "DELETE",
  path: "/v1/recipients/{id}",
  tag: "Recipients",
  summary: "Delete a saved recipient",
  description:
    "Answers the recipient with `isActive: false` and `deletedAt`. From then on it cannot be the destination of a " +
    "new transfer (409), and it answers 404, so a second DELETE is 404.",
  auth: "any",
  permission: "recipients:write",
  params: recipientParams,
  response: recipientSchema,
  action: "recipient.delete",
  errors: [],
});

export const sandboxCreateRecipientEndpoint = endpoint({
  method: "POST",
  path: "/v1/sandbox/recipients",
  tag: "Sandbox",
  summary: "Create a recipient (sandbox)",
  auth: "any",
  permission: "sandbox:write",
  sandbox: true,
  body: createRecipientInput,
  response: recipientSchema,
  status: 201,
  action: "sandbox.recipient.create",
  errors: [],
});
