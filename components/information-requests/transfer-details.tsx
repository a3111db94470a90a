"use client";

import { DetailsList } from "@/components/ui/details-list";
import { DateTime, Money, StatusBadge } from "@/components/ui/format";
import type { Transfer } from "./hooks";

/** What a request's transfer is: amount, status, recipient (and its id where the page does not already name it). */
export function TransferDetails({ transfer, withId = false }: { transfer: Transfer; withId?: boolean }) {
  return (
    <DetailsList
      items={[
        {
          term: "Amount",
          value: <Money amount={transfer.amount} currency={transfer.currency} />,
          testId: "transfer-amount",
        },
        { term: "Status", value: <StatusBadge status={transfer.status} /> },
        { term: "Recipient", value: <code>{transfer.recipientId}</code> },
        withId && { term: "ID", value: <code>{transfer.id}</code> },
        { term: "Created", value: <DateTime value={transfer.createdAt} /> },
      ]}
    />
  );
}
