import { newId } from "@/lib/ids/generate";
import { scopeAccountId, tenantDb } from "@/lib/tenancy";

// A request's timeline (CONTRACT.md, "Information requests as cases"): `created` is the request row
// itself; every later entry is an InformationRequestEvent row, written in the same transaction as the
// change it records, append-only (triggers in the migration refuse updates and deletes).

export const timelineEntryTypes = [
  "created",
  "assigned",
  "priority_changed",
  "status_changed",
  "note_added",
  "document_added",
  "sla_breached",
] as const;
export type TimelineEntryType = (typeof timelineEntryTypes)[number];

/** Who made an entry: an employee, an API key, or the service itself (the SLA sweep). */
export type TimelineActor = { type: "employee" | "api_key" | "system"; id: string | null };

/** Appends one entry to a request's timeline (in the caller's transaction, within the tenant scope). */
export async function recordTimelineEntry({
  informationRequestId,
  type,
  actor,
  data = {},
  at = new Date(),
  accountId = scopeAccountId(),
}: {
  informationRequestId: string;
  type: Exclude<TimelineEntryType, "created">;
  actor: TimelineActor;
  data?: Record<string, string | number | boolean | null>;
  at?: Date;
  accountId?: string;
}) {
  await tenantDb().informationRequestEvent.create({
    data: {
      id: newId("ire"),
      accountId,
      informationRequestId,
      type,
      actorType: actor.type,
      actorId: actor.id,
      data,
      at,
    },
  });
}
