import { db } from "@/lib/db";
import type { DatabaseGauges } from "@/lib/observability/metrics.mjs";

const ageSeconds = (since: Date | null | undefined, now: number) =>
  since ? Math.max(0, Math.round((now - since.getTime()) / 1000)) : 0;

/**
 * What the metrics show of the database, read when Prometheus scrapes (at most once a second): the webhook
 * backlog and its oldest delivery, the audit events no checkpoint has sealed yet and the oldest of them.
 * Each is one indexed aggregate (WebhookDelivery by status, AuditEvent by checkpointId).
 */
export async function readDatabaseGauges(): Promise<DatabaseGauges> {
  const [webhooks, audit] = await Promise.all([
    db().webhookDelivery.aggregate({
      where: { status: "pending" },
      _count: { _all: true },
      _min: { occurredAt: true },
    }),
    db().auditEvent.aggregate({ where: { checkpointId: null }, _count: { _all: true }, _min: { at: true } }),
  ]);
  const now = Date.now();
  return {
    webhookPending: webhooks._count._all,
    webhookOldestPendingAgeSeconds: ageSeconds(webhooks._min.occurredAt, now),
    auditUnsealed: audit._count._all,
    auditSealLagSeconds: ageSeconds(audit._min.at, now),
  };
}
