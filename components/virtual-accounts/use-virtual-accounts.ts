"use client";

import { useApiQuery } from "@/lib/client/queries";
import type { ResponseOf } from "@/lib/contract/endpoint";
import { deactivateVirtualAccountEndpoint, listVirtualAccountsEndpoint } from "@/lib/virtual-accounts/endpoints";

export type VirtualAccount = ResponseOf<typeof deactivateVirtualAccountEndpoint>;

/** The 100 newest virtual accounts, for pickers and for naming an account by its key elsewhere. */
export function useVirtualAccountChoices() {
  return useApiQuery(listVirtualAccountsEndpoint, { query: { limit: 100 } });
}

export const virtualAccountLabel = (account: VirtualAccount) =>
  `${account.key} (${account.currency})${account.isActive ? "" : " — inactive"}`;
