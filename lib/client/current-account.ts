"use client";

import { createContext, useContext } from "react";

/**
 * The account the dashboard acts for (`?account=acct_...` in the URL; null: the employee's own).
 * The shell provides it from the URL (components/account-scope.tsx), so a switch re-renders what
 * reads it and every query keyed by it reads again.
 */
export const AccountContext = createContext<string | null>(null);

/** The account of the page being shown, for hooks and components. */
export const useCurrentAccount = () => useContext(AccountContext);

/** The account in the address bar at this moment, for calls made outside rendering (a click, a submit). */
export function currentAccountId(): string | null {
  if (typeof window === "undefined") return null;
  return new URLSearchParams(window.location.search).get("account") || null;
}

/**
 * An in-dashboard address with `?account=` kept: a link to another page acts for the same account.
 * Only paths of this site are changed, and never one that already names an account.
 */
export function withAccount(href: string, account: string | null): string {
  if (!account || !href.startsWith("/") || href.startsWith("//")) return href;
  const hashAt = href.indexOf("#");
  const hash = hashAt === -1 ? "" : href.slice(hashAt);
  const beforeHash = hashAt === -1 ? href : href.slice(0, hashAt);
  const [path, query = ""] = beforeHash.split("?", 2) as [string, string?];
  const params = new URLSearchParams(query);
  if (params.has("account")) return href;
  params.set("account", account);
  return `${path}?${params.toString()}${hash}`;
}
