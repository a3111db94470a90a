"use client";

import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import type { z } from "zod";
import { LoadMore, useCursorList } from "@/components/ui/cursor-list";
import { TransactionFiltersForm, type TransactionFilters } from "@/components/transactions/transaction-filters";
import { DataState } from "@/components/ui/data-state";
import { DateTime, StatusBadge } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { useVirtualAccountChoices } from "@/components/virtual-accounts/use-virtual-accounts";
import { ApiRequestError, queryString } from "@/lib/client/api";
import type { transactionSchema } from "@/lib/transactions/schemas";

type Transaction = z.output<typeof transactionSchema>;

/** The account's transactions, filtered by virtual account and/or wallet address (both kept in the URL). */
export function TransactionsView() {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const filters: TransactionFilters = {
    virtualAccountId: searchParams.get("virtualAccountId") ?? undefined,
    walletAddress: searchParams.get("walletAddress") ?? undefined,
  };
  const { query, items, state } = useCursorList<Transaction>("/v1/transactions", filters);
  const keys = new Map((useVirtualAccountChoices().data?.items ?? []).map((account) => [account.id, account.key]));
  const serverErrors = state.error instanceof ApiRequestError && state.error.status === 422 ? state.error.details : {};
  const filtered = Boolean(filters.virtualAccountId || filters.walletAddress);

  return (
    <div className="stack">
      <PageHeader title="Transactions" description="Pay-ins, payouts, transfers and fees of your account, newest first." />
      <TransactionFiltersForm
        // Remounts when the URL changes (back/forward, a link), so the form shows the filters in effect.
        key={searchParams.toString()}
        current={filters}
        serverErrors={serverErrors}
        onApply={(next) => router.replace(`${pathname}${queryString(next)}`)}
      />
      <DataState
        query={state}
        isEmpty={items.length === 0}
        empty={filtered ? "No transactions match these filters." : "No transactions yet."}
      >
        <div className="table-wrap">
          <table className="cards">
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">Virtual account</th>
                <th scope="col">Wallet address</th>
                <th scope="col">ID</th>
              </tr>
            </thead>
            <tbody>
              {items.map((transaction) => (
                <tr key={transaction.id}>
                  <td data-label="Created">
                    <DateTime value={transaction.createdAt} />
                  </td>
                  <td data-label="Type">
                    <span className="badge info">{transaction.type.replaceAll("_", " ")}</span>
                  </td>
                  <td data-label="Status">
                    <StatusBadge status={transaction.status} />
                  </td>
                  <td data-label="Amount" className="num nowrap">
                    {transaction.amount} <span className="muted">{transaction.currency}</span>
                  </td>
                  <td data-label="Virtual account">
                    {transaction.virtualAccountId ? (
                      <Link href={`/virtual-accounts#${transaction.virtualAccountId}`} className="nowrap">
                        {keys.get(transaction.virtualAccountId) ?? <span className="mono">{transaction.virtualAccountId}</span>}
                      </Link>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                  <td data-label="Wallet address" className="mono">{transaction.walletAddress ?? <span className="muted">—</span>}</td>
                  <td data-label="ID" className="mono">{transaction.id}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <LoadMore query={query} />
      </DataState>
    </div>
  );
}
