import { pathOf, type Endpoint } from "@/lib/contract/endpoint";
import type { QueryInput, SendOptions } from "@/lib/client/api";

/**
 * The one query-key scheme of the dashboard, keyed by the API path: the filled-in path's segments,
 * then the query where there is one. `/v1/webhook_endpoints/we_1/deliveries?status=failed` is
 * `["v1", "webhook_endpoints", "we_1", "deliveries", { status: "failed" }]`, so invalidating a
 * collection (`queryKey(listWebhookEndpointsEndpoint)`) refreshes every list page, filter and item
 * under it, and invalidating one item refreshes that item and what hangs below it.
 * A query made for another account than the employee's own (`?account=`) ends with `{ account }`:
 * each account's answers are cached apart, so switching reads again, and a prefix without it (what
 * invalidation uses) still covers every account.
 */
export function queryKey<E extends Endpoint>(
  definition: E,
  {
    params,
    query,
    accountId,
  }: { params?: Record<string, string>; query?: QueryInput<E> | SendOptions["query"]; accountId?: string | null } = {},
): readonly unknown[] {
  const segments = pathOf(definition, params).split("/").filter(Boolean);
  const defined = Object.fromEntries(
    Object.entries(query ?? {}).filter(([, value]) => value !== undefined && value !== null && value !== ""),
  );
  const keyed = Object.keys(defined).length > 0 ? [...segments, defined] : segments;
  return accountId ? [...keyed, { account: accountId }] : keyed;
}
