import { endpointGroup } from "@/lib/contract/endpoint";
import { listTransactionsQuery, transactionPageSchema } from "@/lib/transactions/schemas";

const define = endpointGroup({ tag: "Transactions", auth: "any" });

export const listTransactionsEndpoint = define("GET /v1/transactions", {
  summary: "List the account's transactions",
  description:
    "Cursor-paginated, newest first by default. `virtualAccountId` and `walletAddress` filter by exact match and " +
    "may be combined. A `virtualAccountId` the account does not own yields an empty page. A `next` cursor that " +
    "this API did not issue, or one issued for the other `order`, answers 400.",
  permission: "transactions:read",
  query: listTransactionsQuery,
  response: transactionPageSchema,
});
