import { Suspense } from "react";
import { VirtualAccountsView } from "./virtual-accounts-view";

export const metadata = { title: "Virtual accounts" };

export default function VirtualAccountsPage() {
  return (
    <Suspense fallback={<p className="muted">Loading…</p>}>
      <VirtualAccountsView />
    </Suspense>
  );
}
