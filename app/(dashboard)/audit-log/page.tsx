import { Suspense } from "react";
import { AuditLogView } from "./audit-log-view";

export const metadata = { title: "Audit log" };

export default function AuditLogPage() {
  return (
    <Suspense fallback={<p className="muted">Loading…</p>}>
      <AuditLogView />
    </Suspense>
  );
}
