import { AuditVerifyView } from "@/components/audit-log/audit-verify-view";

export const metadata = { title: "Verify the audit trail" };

export default function AuditVerifyPage() {
  return <AuditVerifyView />;
}
