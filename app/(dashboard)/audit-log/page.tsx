import { suspended } from "@/components/ui/suspended";
import { auditActions } from "@/lib/audit/actions";
import { AuditLogView } from "./audit-log-view";

export const metadata = { title: "Audit log" };

// The action picker's choices come from the endpoint definitions, here on the server, so the
// page's script does not carry every endpoint's schemas.
export default suspended(AuditLogView, { actions: auditActions() });
