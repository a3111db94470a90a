import { z } from "zod";
import { jsonObject } from "@/lib/db/json";
import type { AuditEvent } from "@/lib/generated/prisma/client";
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
  })
  .meta({ id: "AuditEvent" });

export const auditEventPageSchema = pageSchemaOf(auditEventSchema, "AuditEventPage");

export function presentAuditEvent(row: AuditEvent) {
  return { ...row, details: row.details === null ? null : jsonObject(row.details) };
}
