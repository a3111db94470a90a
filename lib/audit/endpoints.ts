import { endpointGroup } from "@/lib/contract/endpoint";
import { auditEventPageSchema, auditEventQuery } from "@/lib/audit/schemas";

const define = endpointGroup({ tag: "Audit trail", auth: "any" });

export const listAuditEventsEndpoint = define("GET /v1/audit_events", {
  summary: "The platform's audit trail (extension)",
  description:
    "Append-only: every mutation, failed sign-in and refused credential, with when (UTC), who (employee or key id), " +
    "what (action and target), from where (IP) and the outcome. Never holds a secret, password or code.",
  permission: "audit_log:read",
  platformWide: true,
  query: auditEventQuery,
  response: auditEventPageSchema,
});
