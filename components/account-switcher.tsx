"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useId, type ReactNode } from "react";
import { useCan, useMe } from "@/components/me";
import { linkFor } from "@/components/nav-links";
import { listAccountsEndpoint } from "@/lib/accounts/endpoints";
import { useCurrentAccount } from "@/lib/client/current-account";
import { useApiQuery } from "@/lib/client/queries";
import type { ResponseOf } from "@/lib/contract/endpoint";

type Account = ResponseOf<typeof listAccountsEndpoint>[number];

/**
 * The account every page acts for: the platform's own account or one of its sub-accounts, kept in
 * the URL as `?account=` (none for the own account). Employees who may not read the accounts see
 * their own account's name only.
 */
export function AccountSwitcher() {
  const me = useMe();
  const can = useCan();
  const current = useCurrentAccount();
  const pathname = usePathname();
  const id = useId();
  // The list is the platform's, the same whichever account is shown: asked for without the header.
  const accounts = useApiQuery(listAccountsEndpoint, { accountId: null, enabled: can("accounts:read") });
  const switchTo = useSwitch();
  const platformWide = linkFor(pathname)?.platformWide === true;
  if (!can("accounts:read")) {
    return (
      <div className="account-switcher">
        <span className="account-label">Account</span>
        <span className="account-name">{me.accountName}</span>
      </div>
    );
  }
  const note = platformWide && (
    <p className="account-note">This page covers the whole platform, whichever account is chosen.</p>
  );
  if (!accounts.data) {
    return (
      <div className="account-switcher">
        <label htmlFor={id} className="account-label">
          Account
        </label>
        <select id={id} disabled>
          <option>{accounts.error ? "The accounts could not be loaded" : "Loading accounts…"}</option>
        </select>
        {note}
      </div>
    );
  }
  return (
    <AccountSelect
      id={id}
      accounts={accounts.data}
      current={current}
      ownAccount={me.accountId}
      onChange={(account) => switchTo(account, me.accountId)}
    >
      {note}
    </AccountSelect>
  );
}

/** The switcher once the accounts are in; `children` is the note under it, if any. */
function AccountSelect({
  id,
  accounts,
  current,
  ownAccount,
  onChange,
  children,
}: {
  id: string;
  accounts: Account[];
  current: string | null;
  ownAccount: string;
  onChange: (account: string) => void;
  children: ReactNode;
}) {
  // The platform's own account first, then its sub-accounts in the API's order (oldest first).
  const own = accounts.filter((account) => account.id === ownAccount);
  const others = accounts.filter((account) => account.id !== ownAccount);
  return (
    <div className="account-switcher">
      <label htmlFor={id} className="account-label">
        Account
      </label>
      <select id={id} value={current ?? ownAccount} onChange={(event) => onChange(event.currentTarget.value)}>
        {own.map((account) => (
          <option key={account.id} value={account.id}>
            {account.name} (platform)
          </option>
        ))}
        {others.map((account) => (
          <option key={account.id} value={account.id}>
            {account.name}
          </option>
        ))}
        {current && !accounts.some((account) => account.id === current) && (
          <option value={current}>Unknown account {current}</option>
        )}
      </select>
      {children}
    </div>
  );
}

/**
 * The sub-account the pages act for, named, for the phone's bar where the switcher sits behind
 * "Menu"; nothing for the platform's own account (the brand already names it).
 */
export function ChosenAccount() {
  const can = useCan();
  const current = useCurrentAccount();
  const accounts = useApiQuery(listAccountsEndpoint, {
    accountId: null,
    enabled: current !== null && can("accounts:read"),
  });
  if (!current) return null;
  const name = accounts.data?.find((account) => account.id === current)?.name ?? current;
  return (
    <span className="chosen-account">
      <span className="visually-hidden">Acting for </span>
      {name}
    </span>
  );
}

/**
 * Shows the same page for another account. An object's own page (`/webhooks/we_...`) belongs to the
 * account it was opened in, so a switch there goes to its list; a list's cursors (`next`, `prev`)
 * belong to the old account's list and are dropped. Other filters stay.
 */
function useSwitch() {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  return (account: string, ownAccount: string) => {
    const link = linkFor(pathname);
    const path = link && !link.platformWide && pathname !== link.href ? link.href : pathname;
    const params = new URLSearchParams(path === pathname ? searchParams.toString() : "");
    for (const name of ["next", "prev"]) params.delete(name);
    if (account === ownAccount) params.delete("account");
    else params.set("account", account);
    const query = params.toString();
    router.push(query ? `${path}?${query}` : path);
  };
}
