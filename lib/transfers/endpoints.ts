import { defineSandbox, endpointGroup } from "@/lib/contract/endpoint";
import { createTransferInput, transferParams, transferSchema } from "@/lib/transfers/schemas";

const define = endpointGroup({ tag: "Transfers", auth: "any" });

export const sandboxCreateTransferEndpoint = defineSandbox("POST /v1/sandbox/transfers", {
  summary: "Create a transfer to a saved recipient (sandbox)",
  description:
    "Creates a `pending` transfer. A `recipientId` the account does not own (or that does not exist) answers 404 " +
    '"Recipient not found"; a deleted recipient answers 409.',
  body: createTransferInput,
  response: transferSchema,
  status: 201,
  action: "sandbox.transfer.create",
  errors: [404, 409],
});

export const getTransferEndpoint = define("GET /v1/transfers/{id}", {
  summary: "Get a transfer",
  permission: "transfers:read",
  params: transferParams,
  response: transferSchema,
});
