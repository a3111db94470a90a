import { Suspense } from "react";
import { DelegatedUsersView } from "./delegated-users-view";

export const metadata = { title: "Delegated users" };

export default function DelegatedUsersPage() {
  return (
    <Suspense fallback={<p className="muted">Loading…</p>}>
      <DelegatedUsersView />
    </Suspense>
  );
}
