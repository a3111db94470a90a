import { z } from "zod";
import { jsonObject } from "@/lib/db/json";
import type { AuditEvent } from "@/lib/generated/prisma/client";
import type { AuditEventJson, SealedAuditEventJson } from "@/lib/audit/seal/format";
import { dateRangeQuery, rangeInOrder } from "@/lib/contract/date-range";
import { pageQuerySchema, pageSchemaOf } from "@/lib/contract/pagination";
import { text } from "@/lib/contract/text";

export const auditEventQuery = pageQuerySchema
  .extend({
    action: text().max(100).optional().meta({ description: 'Exact action, e.g. "api_key.issue".' }),
    actorId: text().max(100).optional().meta({ description: "Employee or API key id." }),
    ...dateRangeQuery,
  })
  .refine(...rangeInOrder);

export const auditEventSchema = z
  .object({
    id: z.string(),
    at: z.iso.datetime(),
    accountId: z.string().nullable().meta({ description: "The caller's own account." }),
    actedForAccountId: z.string().nullable().meta({
      description: "The account the request acted for: the one Service-Account-Id named, or the caller's own.",
    }),
    actorType: z.enum(["employee", "api_key", "anonymous"]),
    actorId: z.string().nullable(),
    action: z.string(),
    targetId: z.string().nullable(),
    ip: z.string().nullable(),
    outcome: z.enum(["success", "failure", "denied"]),
    status: z.number().int(),
    requestId: z
      .string()
      .meta({ description: "The server's own id of the request (`req_...`), as a 500's message quotes it." }),
    clientRequestId: z.string().nullable().meta({
      description:
        "The client's `X-Request-Id`, when it sent a sane one (the response echoed it); kept apart, since a client chooses it.",
    }),
    details: z.record(z.string(), z.unknown()).nullable(),
    checkpointId: z.string().nullable().meta({
      description:
        "The checkpoint that sealed it (GET /v1/audit_events/checkpoints); null while pending (sealing takes at most about 10 seconds).",
    }),
  })
  .meta({ id: "AuditEvent" });

export const auditEventPageSchema = pageSchemaOf(auditEventSchema, "AuditEventPage");

export function presentAuditEvent(row: AuditEvent): SealedAuditEventJson {
  return { ...auditEventJson(row), checkpointId: row.checkpointId };
}

/** An audit event as the API gives it, and as its Merkle leaf is hashed (lib/audit/seal/format.ts): every field in the API's form. */
export function auditEventJson(row: Omit<AuditEvent, "platformId" | "checkpointId">): AuditEventJson {
  return {
    id: row.id,
    at: row.at.toISOString(),
    accountId: row.accountId,
    actedForAccountId: row.actedForAccountId,
    actorType: row.actorType,
    actorId: row.actorId,
    action: row.action,
    targetId: row.targetId,
    ip: row.ip,
    outcome: row.outcome,
    status: row.status,
    requestId: row.requestId,
    clientRequestId: row.clientRequestId,
    details: row.details === null ? null : jsonObject(row.details),
  };
}
