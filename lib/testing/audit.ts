import { db } from "@/lib/db";

/** The newest audit record of `action` (on `targetId` when given); a missing one fails the test. */
export async function lastAuditEvent({ action, targetId }: { action: string; targetId?: string }) {
  const event = await db().auditEvent.findFirst({ where: { action, ...(targetId ? { targetId } : {}) }, orderBy: [{ at: "desc" }, { id: "desc" }] });
  if (!event) throw new Error(`no audit record of ${action}${targetId ? ` on ${targetId}` : ""}`);
  return event;
}
