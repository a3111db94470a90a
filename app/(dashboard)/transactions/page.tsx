import { Suspense } from "react";
import { TransactionsView } from "./transactions-view";

export const metadata = { title: "Transactions" };

export default function TransactionsPage() {
  return (
    <Suspense fallback={<p className="muted">Loading…</p>}>
      <TransactionsView />
    </Suspense>
  );
}
