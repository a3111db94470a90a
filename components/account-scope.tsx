"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { useMemo, type ReactNode } from "react";
import { AccountContext, useCurrentAccount, withAccount } from "@/lib/client/current-account";

/** The account the address bar names (`?account=acct_...`), for every query and link of the page. */
export function AccountScope({ children }: { children: ReactNode }) {
  const account = useSearchParams().get("account") || null;
  return <AccountContext.Provider value={account}>{children}</AccountContext.Provider>;
}

/** useRouter whose push and replace keep the account the page acts for, like the dashboard's links. */
export function useAccountRouter() {
  const router = useRouter();
  const account = useCurrentAccount();
  return useMemo(
    () => ({
      ...router,
      push: (href: string, options?: Parameters<typeof router.push>[1]) =>
        router.push(withAccount(href, account), options),
      replace: (href: string, options?: Parameters<typeof router.replace>[1]) =>
        router.replace(withAccount(href, account), options),
    }),
    [router, account],
  );
}
