// Endpoint definitions of this resource: each is used by its route file and by the OpenAPI document.
import { endpoint } from "@/lib/http/endpoint";
import { listTransactionsQuery, transactionPageSchema } from "@/lib/transactions/schemas";

export const listTransactionsEndpoint = endpoint({
  method: "GET",
  path: "/v1/transactions",
  tag: "Transactions",
  summary: "List the account's transactions",
  description:
    "Cursor-paginated, newest first by default. `virtualAccountId` and `walletAddress` filter by exact match and " +
    "may be combined. A `virtualAccountId` the account does not own yields an empty page. A `next` cursor that " +
    "this API did not issue, or one issued for the other `order`, answers 400.",
  auth: "any",
  permission: "transactions:read",
  query: listTransactionsQuery,
  response: transactionPageSchema,
  errors: [],
});
