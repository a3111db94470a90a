"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { api, queryString } from "@/lib/client/api";

// Shared by every cursor-paginated page of the dashboard (it would sit in components/ui).

type Page<T> = { items: T[]; next: string | null };

/**
 * A cursor-paginated /v1 list as one growing list: the first page, then one more per "Load more".
 * The cursor stays opaque; filters are part of the query key, so changing them starts over.
 */
export function useCursorList<T>(path: string, filters: Record<string, string | undefined> = {}, limit = 20) {
  const query = useInfiniteQuery({
    queryKey: [path, filters, limit],
    queryFn: ({ pageParam }) => api<Page<T>>(`${path}${queryString({ ...filters, limit, next: pageParam })}`),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const items = query.data?.pages.flatMap((page) => page.items) ?? [];
  return {
    query,
    items,
    /** For DataState: only the first page decides loading/error; a failed "Load more" is shown beside its button. */
    state: { isPending: query.isPending, error: query.data ? null : query.error, refetch: query.refetch },
  };
}

/** The "Load more" button under a list, with its own error (a failed next page keeps the rows already shown). */
export function LoadMore({
  query,
}: {
  query: { hasNextPage: boolean; isFetchNextPageError: boolean; isFetchingNextPage: boolean; error: unknown; fetchNextPage: () => unknown };
}) {
  if (!query.hasNextPage && !query.isFetchNextPageError) return null;
  return (
    <div className="row" style={{ justifyContent: "center" }}>
      {query.isFetchNextPageError && (
        <span className="field-error" role="alert">
          {query.error instanceof Error ? query.error.message : "Could not load more."}
        </span>
      )}
      <button type="button" onClick={() => query.fetchNextPage()} disabled={query.isFetchingNextPage}>
        {query.isFetchingNextPage ? "Loading…" : "Load more"}
      </button>
    </div>
  );
}
