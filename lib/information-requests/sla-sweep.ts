import { randomBytes } from "node:crypto";
import { db, inTransaction } from "@/lib/db";
import { takeLease } from "@/lib/db/lease";
import { createLeasedJob, startLeasedJobOnce, type LeasedJob } from "@/lib/db/leased-job";
import { env } from "@/lib/env";
import type { InformationRequest } from "@/lib/generated/prisma/client";
import { recordTimelineEntry } from "@/lib/information-requests/timeline";
import { informationRequestSchema, presentInformationRequest } from "@/lib/information-requests/schemas";
import { mailConfigured, sendMail } from "@/lib/mail/mailer";
import { slaBreachedMail } from "@/lib/mail/messages";
import { withScope } from "@/lib/tenancy";
import { emitResourceEvent } from "@/lib/webhooks/events";

// The SLA sweep (docs/api.md, Information requests as cases): information_request.sla_breached goes
// out once per request, within a minute of its dueAt. It runs in the service process, one process at
// a time (the WorkerLease "sla-sweep"); the once is kept by the request row itself, whose slaBreachedAt
// only one conditional update can set, so two processes that both swept (a lease that ran out mid-pass)
// still announce each breach once.

export const SLA_SWEEP_LEASE = "sla-sweep";
/** The sweep's period: with a pass every 15 s and a lease of 30 s, a breach is announced within 45 s even when the lease holder died. */
export const SLA_SWEEP_INTERVAL_MS = 15_000;
const OPEN_STATUSES = ["requested", "on_review"] as const;

export type SlaSweepOptions = {
  /** The clock: tests move it past a due date without waiting. */
  now?: () => Date;
  intervalMs?: number;
  /** How long a pass holds the lease; renewed before each batch. */
  leaseMs?: number;
  batchSize?: number;
  owner?: string;
  log?: (message: string) => void;
};

type SweepSettings = Required<SlaSweepOptions>;

function sweepSettings(options: SlaSweepOptions): SweepSettings {
  const intervalMs = options.intervalMs ?? SLA_SWEEP_INTERVAL_MS;
  return {
    now: options.now ?? (() => new Date()),
    intervalMs,
    leaseMs: options.leaseMs ?? 2 * intervalMs,
    batchSize: options.batchSize ?? 100,
    owner: options.owner ?? `sla_${process.pid}_${randomBytes(6).toString("hex")}`,
    log: options.log ?? ((message: string) => console.error(`[sla-sweep] ${message}`)),
  };
}

/**
 * One pass, when this process holds (or can take) the lease: every open request whose dueAt has
 * passed and whose breach nobody announced yet, soonest due first, a batch at a time (the lease renewed
 * before each). Answers how many breaches this pass announced; 0 when another process holds the lease.
 */
export async function sweepSlaBreaches(options: SlaSweepOptions = {}): Promise<number> {
  const { now, leaseMs, batchSize, owner } = sweepSettings(options);
  let announced = 0;
  for (;;) {
    const at = now();
    if (!(await takeLease({ name: SLA_SWEEP_LEASE, owner, ms: leaseMs, now: at }))) return announced;
    const due = await db().informationRequest.findMany({
      where: { dueAt: { lte: at }, slaBreachedAt: null, status: { in: [...OPEN_STATUSES] } },
      orderBy: [{ dueAt: "asc" }, { id: "asc" }],
      take: batchSize,
      select: { id: true },
    });
    for (const { id } of due) if (await announceBreach(id, at)) announced += 1;
    if (due.length < batchSize) return announced;
  }
}

/**
 * Marks one request breached and announces it (timeline entry and webhook event, in one transaction),
 * then e-mails its assignee. Answers false when it was not this call's to announce: already announced,
 * decided meanwhile, or its due date moved.
 */
export async function announceBreach(id: string, at: Date): Promise<boolean> {
  const breached = await inTransaction(async () => {
    const [row] = await db().informationRequest.updateManyAndReturn({
      where: { id, slaBreachedAt: null, dueAt: { lte: at }, status: { in: [...OPEN_STATUSES] } },
      data: { slaBreachedAt: at },
    });
    if (!row) return null;
    const { platformId } = await db().account.findUniqueOrThrow({
      where: { id: row.accountId },
      select: { platformId: true },
    });
    // System code acting for the request's account: no request scope, so the tenant's is made here.
    await withScope({ platformId, accountId: row.accountId }, async () => {
      await recordTimelineEntry({
        informationRequestId: row.id,
        type: "sla_breached",
        actor: { type: "system", id: null },
        data: { dueAt: row.dueAt!.toISOString() },
        at,
      });
      await emitResourceEvent(
        "information_request.sla_breached",
        informationRequestSchema,
        presentInformationRequest(row),
        { now: at },
      );
    });
    return { row, platformId };
  });
  if (!breached) return false;
  // After the commit, outside its transaction: a slow or failing mail server delays only this sweep.
  await mailBreachNotice(breached.row, breached.platformId);
  return true;
}

/** E-mails the request's assignee, when e-mail is configured and the assignee is an active employee of its platform. */
async function mailBreachNotice(request: InformationRequest, platformId: string) {
  if (!mailConfigured() || !request.assigneeId || !request.dueAt) return;
  const employee = await db().employee.findUnique({ where: { id: request.assigneeId } });
  if (employee?.status !== "active" || employee.accountId !== platformId) return;
  await sendMail(
    slaBreachedMail({
      to: employee.email,
      name: employee.name,
      request: { id: request.id, kind: request.kind, accountId: request.accountId, dueAt: request.dueAt },
      platformId,
    }),
  );
}

export type SlaSweep = LeasedJob;

export function createSlaSweep(options: SlaSweepOptions = {}): SlaSweep {
  const settings = sweepSettings(options);
  return createLeasedJob({
    lease: SLA_SWEEP_LEASE,
    owner: settings.owner,
    intervalMs: settings.intervalMs,
    pass: () => sweepSlaBreaches(settings),
    log: settings.log,
  });
}

/** Starts the process's sweep (once; server.mjs stops it on SIGTERM). */
export function startSlaSweep(): SlaSweep {
  return startLeasedJobOnce("sla-sweep", () =>
    createSlaSweep({ intervalMs: env().SLA_SWEEP_INTERVAL_MS ?? SLA_SWEEP_INTERVAL_MS }),
  );
}
