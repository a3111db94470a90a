import { defineSandbox, endpointGroup } from "@/lib/contract/endpoint";
import { pageQuerySchema } from "@/lib/contract/pagination";
import { createRecipientInput, recipientPageSchema, recipientParams, recipientSchema } from "@/lib/recipients/schemas";

const define = endpointGroup({ tag: "Recipients", auth: "any" });

export const listRecipientsEndpoint = define("GET /v1/recipients", {
  summary: "List the account's saved recipients",
  description:
    "Cursor-paginated, newest first by default. Deleted recipients answer 404 everywhere, so they are not listed. " +
    "An extension the dashboard uses. A `next` cursor that this API did not issue, or one issued for the other " +
    "`order`, answers 400.",
  permission: "recipients:read",
  query: pageQuerySchema,
  response: recipientPageSchema,
});

export const deleteRecipientEndpoint = define("DELETE /v1/recipients/{id}", {
  summary: "Delete a saved recipient",
  description:
    "Answers the recipient with `isActive: false` and `deletedAt`. From then on it cannot be the destination of a " +
    "new transfer (409), and it answers 404, so a second DELETE is 404.",
  permission: "recipients:write",
  params: recipientParams,
  response: recipientSchema,
  action: "recipient.delete",
});

export const sandboxCreateRecipientEndpoint = defineSandbox("POST /v1/sandbox/recipients", {
  summary: "Create a recipient (sandbox)",
  body: createRecipientInput,
  response: recipientSchema,
  status: 201,
  action: "sandbox.recipient.create",
});
