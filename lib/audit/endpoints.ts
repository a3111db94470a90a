import { endpoint } from "@/lib/http/endpoint";
import { auditEventPageSchema, auditEventQuery } from "@/lib/audit/schemas";

export const listAuditEventsEndpoint = endpoint({
  method: "GET",
  path: "/v1/audit_events",
  tag: "Audit trail",
  summary: "The platform's audit trail (extension)",
  description:
    "Append-only: every mutation, failed sign-in and refused credential, with when (UTC), who (employee or key id), " +
    "what (action and target), from where (IP) and the outcome. Never holds a secret, password or code.",
  auth: "any",
  permission: "audit_log:read",
  platformWide: true,
  query: auditEventQuery,
  response: auditEventPageSchema,
  errors: [],
});
