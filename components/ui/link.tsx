"use client";

import NextLink from "next/link";
import type { ComponentProps } from "react";
import { useCurrentAccount, withAccount } from "@/lib/client/current-account";

/**
 * next/link for the dashboard: an address of this site keeps the account the page acts for
 * (`?account=`), so moving between pages never silently switches back to the own account.
 */
export default function Link({ href, ...props }: ComponentProps<typeof NextLink>) {
  const account = useCurrentAccount();
  return <NextLink href={typeof href === "string" ? withAccount(href, account) : href} {...props} />;
}
