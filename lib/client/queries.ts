"use client";

import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { send, type ApiOptions, type SendOptions } from "@/lib/client/api";
import { useCurrentAccount } from "@/lib/client/current-account";
import { queryKey } from "@/lib/client/query-keys";
import type { Endpoint, ResponseOf } from "@/lib/contract/endpoint";

type QuerySettings<E extends Endpoint> = {
  /** false: wait (e.g. until the employee may read it). */
  enabled?: boolean;
  /** What the server rendered, shown until the first fetch answers. */
  initialData?: ResponseOf<E>;
};
type QueryOptions<E extends Endpoint> = ApiOptions<E> & QuerySettings<E>;
/** The options may be left out where nothing in them is required (no path parameters). */
type QueryArgs<E extends Endpoint> =
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{} extends T` asks whether every property of T is optional
  {} extends QueryOptions<E> ? [options?: QueryOptions<E>] : [options: QueryOptions<E>];

/** The call with the account the page shows (unless it names one): sent as Service-Account-Id and part of the key. */
function useAccountCall(call: SendOptions): SendOptions {
  const account = useCurrentAccount();
  return call.accountId === undefined ? { ...call, accountId: account } : call;
}

/** A GET endpoint's answer through react-query, keyed by its path (lib/client/query-keys.ts). */
export function useApiQuery<E extends Endpoint>(definition: E, ...[options]: QueryArgs<E>) {
  const { enabled, initialData, ...rest }: QuerySettings<E> & SendOptions = options ?? {};
  const call = useAccountCall(rest);
  return useQuery<ResponseOf<E>>({
    queryKey: queryKey(definition, call),
    queryFn: async () => (await send(definition, call)) as ResponseOf<E>,
    enabled,
    initialData,
  });
}

/** The items of a cursor-paginated answer (`{ items, next }`). */
type ItemOf<E extends Endpoint> = ResponseOf<E> extends { items: readonly (infer Item)[] } ? Item : never;
type Page<E extends Endpoint> = { items: ItemOf<E>[]; next: string | null };
type CursorSettings<E extends Endpoint = Endpoint> = {
  /**
   * How often to read the loaded pages again, from the items shown (false: not again). The audit log
   * reads again while an event waits to be sealed.
   */
  refetchInterval?: (items: ItemOf<E>[]) => number | false;
  /**
   * The cursor of the first page to show, for a list that shows a page at a time and keeps its
   * place in the URL (information requests); left out, the list starts at the beginning.
   */
  from?: string;
};
type CursorOptions<E extends Endpoint> = QueryOptions<E> & CursorSettings<E>;
type CursorArgs<E extends Endpoint> =
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{} extends T` asks whether every property of T is optional
  {} extends CursorOptions<E> ? [options?: CursorOptions<E>] : [options: CursorOptions<E>];

/**
 * A cursor-paginated /v1 list as one growing list: the first page, then one more per "Load more".
 * The cursor stays opaque; the query (filters) is part of the key, so changing it starts over.
 */
export function useCursorList<E extends Endpoint>(definition: E, ...[options]: CursorArgs<E>) {
  const { enabled, from, refetchInterval, ...rest }: QuerySettings<E> & CursorSettings<E> & SendOptions = options ?? {};
  const call = useAccountCall(rest);
  const query = useInfiniteQuery({
    queryKey: from ? [...queryKey(definition, call), "pages", from] : [...queryKey(definition, call), "pages"],
    queryFn: async ({ pageParam }) =>
      (await send(definition, { ...call, query: { limit: 20, ...call.query, next: pageParam } })) as Page<E>,
    initialPageParam: from,
    getNextPageParam: (last) => last.next ?? undefined,
    enabled,
    refetchInterval: refetchInterval
      ? (current) => refetchInterval(current.state.data?.pages.flatMap((page) => page.items) ?? [])
      : undefined,
  });
  const items: ItemOf<E>[] = query.data?.pages.flatMap((page) => page.items) ?? [];
  return {
    query,
    items,
    /** The cursor after the last page read; null at the end of the list. */
    next: query.data?.pages.at(-1)?.next ?? null,
    /** For DataState: only the first page decides loading/error; a failed "Load more" is shown beside its button. */
    state: { isPending: query.isPending, error: query.data ? null : query.error, refetch: query.refetch },
  };
}

/** Refreshes what the dashboard shows of an endpoint's path and everything under it; awaitable. */
export function useInvalidate() {
  const queryClient = useQueryClient();
  return (definition: Endpoint, params?: Record<string, string>) =>
    queryClient.invalidateQueries({ queryKey: queryKey(definition, { params }) });
}
