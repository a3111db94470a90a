"use client";

import Link from "@/components/ui/link";
import { TransactionFiltersForm, type TransactionFilters } from "@/components/transactions/transaction-filters";
import { filterErrorsOf } from "@/components/ui/filter-bar";
import { DateTime, Money, ShortId, StatusBadge } from "@/components/ui/format";
import { CursorListTable } from "@/components/ui/list-table";
import { PageHeader } from "@/components/ui/page-header";
import { useUrlQuery } from "@/components/ui/url-query";
import { useVirtualAccountChoices } from "@/components/virtual-accounts/use-virtual-accounts";
import { useCursorList } from "@/lib/client/queries";
import { listTransactionsEndpoint } from "@/lib/transactions/endpoints";

/** The account's transactions, filtered by virtual account and/or wallet address (both kept in the URL). */
export function TransactionsView() {
  const url = useUrlQuery(["virtualAccountId", "walletAddress"]);
  const filters: TransactionFilters = url.values;
  const list = useCursorList(listTransactionsEndpoint, { query: filters });
  const keys = new Map((useVirtualAccountChoices().data?.items ?? []).map((account) => [account.id, account.key]));

  return (
    <div className="stack">
      <PageHeader
        title="Transactions"
        description="Pay-ins, payouts, transfers and fees of your account, newest first."
      />
      <TransactionFiltersForm
        key={url.version}
        current={filters}
        serverErrors={filterErrorsOf(list.state.error)}
        onApply={url.replace}
      />
      <CursorListTable
        label="Transactions"
        list={list}
        empty={<NoTransactions filtered={url.filtered} />}
        columns={[
          { header: "Created", cell: (transaction) => <DateTime value={transaction.createdAt} /> },
          {
            header: "Type",
            cell: (transaction) => <span className="badge info">{transaction.type.replaceAll("_", " ")}</span>,
          },
          { header: "Status", cell: (transaction) => <StatusBadge status={transaction.status} /> },
          {
            header: "Amount",
            num: true,
            className: "nowrap",
            cell: (transaction) => <Money amount={transaction.amount} currency={transaction.currency} />,
          },
          {
            header: "Virtual account",
            cell: ({ virtualAccountId: id }) => <VirtualAccountLink id={id} keys={keys} />,
          },
          {
            header: "Wallet address",
            cell: ({ walletAddress }) =>
              walletAddress ? <ShortId id={walletAddress} /> : <span className="muted">—</span>,
          },
          { header: "ID", cell: (transaction) => <ShortId id={transaction.id} /> },
        ]}
      />
    </div>
  );
}

function NoTransactions({ filtered }: { filtered: boolean }) {
  if (filtered) return "No transactions match these filters.";
  return (
    <>
      No transactions yet. They arrive through the API (pay-ins to your virtual accounts, payouts and transfers): see
      the <Link href="/docs">API reference</Link>.
    </>
  );
}

/** The virtual account a transaction went through, by its key where the page knows it. */
function VirtualAccountLink({ id, keys }: { id: string | null; keys: ReadonlyMap<string, string> }) {
  if (!id) return <span className="muted">—</span>;
  return (
    <Link href={`/virtual-accounts#${id}`} className="nowrap">
      {keys.get(id) ?? <span className="mono">{id}</span>}
    </Link>
  );
}
