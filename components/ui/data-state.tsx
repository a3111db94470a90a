"use client";

import type { ReactNode } from "react";
import { ApiRequestError } from "@/lib/client/api";

/** Loading, error and empty states for a query, so every page shows them the same way. */
export function DataState({
  query,
  empty,
  isEmpty,
  children,
}: {
  query: { isPending: boolean; error: unknown; refetch: () => unknown };
  empty?: ReactNode;
  isEmpty?: boolean;
  children: ReactNode;
}) {
  if (query.isPending)
    return (
      <p className="muted" role="status">
        Loading…
      </p>
    );
  if (query.error) {
    const message = query.error instanceof ApiRequestError ? query.error.message : "Could not reach the server.";
    return (
      <div className="alert error" role="alert">
        {message}{" "}
        <button type="button" className="link" onClick={() => query.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  if (isEmpty) return <div className="empty card">{empty ?? "Nothing here yet."}</div>;
  return <>{children}</>;
}

export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div className="alert error" role="alert">
      {message}
    </div>
  );
}
