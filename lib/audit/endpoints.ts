import { endpointGroup } from "@/lib/contract/endpoint";
import { auditEventPageSchema, auditEventQuery } from "@/lib/audit/schemas";
import { checkpointPageSchema, checkpointQuery, publicKeySchema } from "@/lib/audit/seal/schemas";

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

export const listAuditCheckpointsEndpoint = define("GET /v1/audit_events/checkpoints", {
  summary: "The audit trail's signed checkpoints (extension)",
  description:
    "Every few seconds the platform's new audit events are sealed into a checkpoint: the Merkle root of their " +
    "canonical JSON, chained to the checkpoint before by its hash and signed with Ed25519 " +
    "(GET /v1/audit_events/public_key). Newest first (by seq) unless order=asc.",
  permission: "audit_log:read",
  platformWide: true,
  query: checkpointQuery,
  response: checkpointPageSchema,
});

export const auditPublicKeyEndpoint = define("GET /v1/audit_events/public_key", {
  summary: "The keys that sign the audit trail's checkpoints (extension)",
  description:
    "The Ed25519 public key (SPKI PEM) signing checkpoints now, and every key that signed one of the platform's " +
    "checkpoints with the seqs it signed: after a rotation the old key stays listed.",
  permission: "audit_log:read",
  platformWide: true,
  response: publicKeySchema,
});
