import { db } from "@/lib/db";

/** The newest audit record of `action` (on `targetId`, by `actorId`, when given); a missing one fails the test. */
export async function lastAuditEvent({
  action,
  targetId,
  actorId,
}: {
  action: string;
  targetId?: string;
  actorId?: string;
}) {
  const where = { action, ...(targetId ? { targetId } : {}), ...(actorId ? { actorId } : {}) };
  const event = await db().auditEvent.findFirst({ where, orderBy: [{ at: "desc" }, { id: "desc" }] });
  if (!event) throw new Error(`no audit record of ${JSON.stringify(where)}`);
  return event;
}
