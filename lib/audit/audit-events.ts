import { withinRange } from "@/lib/contract/date-range";
import { paginate, type PageQuery } from "@/lib/contract/pagination";
import { presentAuditEvent } from "@/lib/audit/schemas";
import { tenantDb } from "@/lib/tenancy";

/** The platform's audit trail, newest first by default, filtered by action, actor and time. */
export async function listAuditEvents(
  query: PageQuery & { action?: string; actorId?: string; startDate?: Date; endDate?: Date },
) {
  const at = withinRange(query);
  const filters = {
    ...(query.action ? { action: query.action } : {}),
    ...(query.actorId ? { actorId: query.actorId } : {}),
    ...(at ? { at } : {}),
  };
  const page = await paginate(
    query,
    (args) => tenantDb().auditEvent.findMany({ ...args, where: { ...args.where, ...filters } }),
    "at",
  );
  return { ...page, items: page.items.map(presentAuditEvent) };
}
