import { typedFileName } from "@/lib/information-requests/document-names";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { newId } from "@/lib/ids/generate";
import type { TimelineEntry } from "@/lib/information-requests/schemas";
import { scopeAccountId, tenantDb } from "@/lib/tenancy";

// A request's timeline (docs/api.md, Information requests as cases): `created` is the request row
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

/** The names of a timeline's actors, by id: employees' and keys' (the service itself has none). */
async function actorNames(rows: { actorType: string; actorId: string | null }[]) {
  const idsOf = (type: string) => [
    ...new Set(rows.filter((row) => row.actorType === type && row.actorId).map((row) => row.actorId!)),
  ];
  const [employeeIds, keyIds] = [idsOf("employee"), idsOf("api_key")];
  const [employees, keys] = await Promise.all([
    employeeIds.length
      ? tenantDb().employee.findMany({ where: { id: { in: employeeIds } }, select: { id: true, name: true } })
      : [],
    // A key of the platform may act in a sub-account, so keys are looked up by the ids the timeline holds.
    keyIds.length ? db().apiKey.findMany({ where: { id: { in: keyIds } }, select: { id: true, name: true } }) : [],
  ]);
  return new Map<string, string | null>([...employees, ...keys].map((named) => [named.id, named.name]));
}

/**
 * A request's timeline, oldest first: `created` (the request itself, by the service: who raised it is
 * not recorded), then each later entry in (at, id) order, with its actor's name and its own fields.
 */
export async function listInformationRequestTimeline({ id }: { id: string }): Promise<TimelineEntry[]> {
  const request = await tenantDb().informationRequest.findUnique({
    where: { id },
    select: { id: true, createdAt: true },
  });
  if (!request) throw notFound("Information request");
  const rows = await tenantDb().informationRequestEvent.findMany({
    where: { informationRequestId: request.id },
    orderBy: [{ at: "asc" }, { id: "asc" }],
  });
  const names = await actorNames(rows);
  const created: TimelineEntry = {
    at: request.createdAt.toISOString(),
    type: "created",
    actor: { type: "system", id: null, name: null },
  };
  const later = rows.map((row) => {
    const data = isJsonObject(row.data) ? typedDocumentName(row.data) : {};
    const actor = { type: row.actorType, id: row.actorId, name: row.actorId ? (names.get(row.actorId) ?? null) : null };
    // The entry's own fields first: a field of `data` never stands in for when, what or who.
    return { ...data, at: row.at.toISOString(), type: row.type, actor } as TimelineEntry;
  });
  return [created, ...later];
}

/** A document entry names the document as it is served, with its type's extension (entries stored before kept the uploaded name). */
const typedDocumentName = (data: Record<string, unknown>) =>
  typeof data.fileName === "string" && typeof data.contentType === "string"
    ? { ...data, fileName: typedFileName(data.fileName, data.contentType) }
    : data;

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
