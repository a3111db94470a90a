"use client";

// The "Load more" button every cursor list shares (the list itself: useCursorList in lib/client/queries.ts).

/** The "Load more" button under a list, with its own error (a failed next page keeps the rows already shown). */
export function LoadMore({
  query,
}: {
  query: {
    hasNextPage: boolean;
    isFetchNextPageError: boolean;
    isFetchingNextPage: boolean;
    error: unknown;
    fetchNextPage: () => unknown;
  };
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
