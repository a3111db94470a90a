"use client";

import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "@/lib/client/api";
import type { virtualAccountPageSchema, virtualAccountSchema } from "@/lib/virtual-accounts/schemas";

export type VirtualAccount = z.output<typeof virtualAccountSchema>;

/** The 100 newest virtual accounts, for pickers and for naming an account by its key elsewhere. */
export function useVirtualAccountChoices() {
  return useQuery({
    queryKey: ["/v1/virtual_accounts", "choices"],
    queryFn: () => api<z.output<typeof virtualAccountPageSchema>>("/v1/virtual_accounts?limit=100"),
  });
}

export const virtualAccountLabel = (account: VirtualAccount) =>
  `${account.key} (${account.currency})${account.isActive ? "" : " — inactive"}`;
