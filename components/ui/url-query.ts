"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useAccountRouter } from "@/components/account-scope";
import { queryString } from "@/lib/client/api";

type Values<N extends string> = { [K in N]?: string };

/**
 * A list page's filters kept in the URL, so a view can be bookmarked, shared and reloaded: the
 * named search parameters (a missing or empty one is undefined), and the ways to change them.
 */
export function useUrlQuery<N extends string>(names: readonly N[]) {
  const router = useAccountRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const values: Values<N> = {};
  for (const name of names) values[name] = searchParams.get(name) || undefined;
  /** This page's address with these values (the missing and empty ones left out). */
  const href = (next: Values<N>) => `${pathname}${queryString(next)}`;
  return {
    values,
    /** Whether any of them is set. */
    filtered: names.some((name) => values[name]),
    /** Changes with the URL: as the `key` of a filter form, it remounts the form to show what the URL says (back/forward, a link). */
    version: searchParams.toString(),
    href,
    /** Shows the page with these values instead. */
    replace: (next: Values<N>) => router.replace(href(next)),
  };
}
