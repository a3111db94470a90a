import { suspended } from "@/components/ui/suspended";
import { AuditLogView } from "./audit-log-view";

export const metadata = { title: "Audit log" };

export default suspended(AuditLogView);
