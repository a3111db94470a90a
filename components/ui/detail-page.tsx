"use client";

import Link from "@/components/ui/link";
import type { ReactNode } from "react";
import { DataState } from "@/components/ui/data-state";
import { PageHeader } from "@/components/ui/page-header";

/**
 * The page of one object: a header titled from the object once it is read (with its id under the
 * title, and a link back to its list), then its sections.
 */
export function DetailPage<T>({
  id,
  query,
  title,
  back,
  children,
}: {
  id: string;
  query: { data: T | undefined; isPending: boolean; error: unknown; refetch: () => unknown };
  /** The title, from the object or (undefined) before it is read. */
  title: (object: T | undefined) => string;
  back: { href: string; label: string };
  children: (object: T) => ReactNode;
}) {
  return (
    <div className="stack">
      <PageHeader
        title={title(query.data)}
        description={<code>{id}</code>}
        actions={<Link href={back.href}>{back.label}</Link>}
      />
      <DataState query={query}>{query.data !== undefined && children(query.data)}</DataState>
    </div>
  );
}
