import { listTransactionsEndpoint } from "@/lib/transactions/endpoints";
import { listTransactions } from "@/lib/transactions/transactions";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: a page of the account's transactions, optionally by virtual account and/or wallet address.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listTransactionsEndpoint, async ({ query }) => listTransactions(query)),
});
