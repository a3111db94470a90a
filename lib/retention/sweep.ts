import { randomBytes } from "node:crypto";
import { db } from "@/lib/db";
import { takeLease } from "@/lib/db/lease";
import { createLeasedJob, startLeasedJobOnce, type LeasedJob } from "@/lib/db/leased-job";
import { env } from "@/lib/env";
import { Prisma } from "@/lib/generated/prisma/client";

// The retention sweep (docs/retention.md): what each platform's `retention` settings say may no longer be
// kept goes, at start and then every hour, one process at a time (the WorkerLease "retention-sweep"):
// - a webhook delivery's payload (`eventData`) once its event is older than `webhookPayloadDays`; the
//   delivery row stays (its id, type, dates and status are the record that it was sent). A delivery still
//   being attempted keeps its payload until its attempts end;
// - a session ended (signed out, expired, or idle past SESSION_IDLE_MINUTES) longer than `sessionDays` ago.
// Each step is one statement per platform whose condition decides, so two processes sweeping at once (a
// lease that ran out mid-pass) remove the same rows once.

export const RETENTION_SWEEP_LEASE = "retention-sweep";
export const RETENTION_SWEEP_INTERVAL_MS = 60 * 60 * 1000;
const DAY_MS = 86_400_000;

export type RetentionSweepOptions = {
  /** The clock: tests move it forward without waiting. */
  now?: () => Date;
  intervalMs?: number;
  owner?: string;
  log?: (message: string) => void;
};

export type RetentionSweepResult = { webhookPayloads: number; sessions: number };

type PlatformRetention = { id: string; retentionWebhookPayloadDays: number; retentionSessionDays: number };

/**
 * One pass when this process holds (or can take) the lease: every platform's expired payloads and ended
 * sessions removed. Null when another process holds the lease.
 */
export async function sweepRetention(options: RetentionSweepOptions = {}): Promise<RetentionSweepResult | null> {
  const at = options.now?.() ?? new Date();
  const owner = options.owner ?? `retention_${process.pid}`;
  const intervalMs = options.intervalMs ?? RETENTION_SWEEP_INTERVAL_MS;
  if (!(await takeLease({ name: RETENTION_SWEEP_LEASE, owner, ms: Math.min(intervalMs, 10 * 60_000), now: at })))
    return null;
  const platforms: PlatformRetention[] = await db().account.findMany({
    where: { parentId: null },
    select: { id: true, retentionWebhookPayloadDays: true, retentionSessionDays: true },
  });
  const result: RetentionSweepResult = { webhookPayloads: 0, sessions: 0 };
  for (const platform of platforms) {
    result.webhookPayloads += await removeWebhookPayloads(platform, at);
    result.sessions += await removeEndedSessions(platform, at);
  }
  return result;
}

/** The payloads of the platform's deliveries whose event is older than its webhookPayloadDays and no longer attempted. */
async function removeWebhookPayloads(platform: PlatformRetention, at: Date): Promise<number> {
  const before = new Date(at.getTime() - platform.retentionWebhookPayloadDays * DAY_MS);
  const { count } = await db().webhookDelivery.updateMany({
    where: {
      occurredAt: { lt: before },
      status: { not: "pending" },
      eventData: { not: Prisma.DbNull },
      endpoint: { account: { platformId: platform.id } },
    },
    data: { eventData: Prisma.DbNull },
  });
  return count;
}

/** The platform's employees' sessions that ended more than its sessionDays ago. */
async function removeEndedSessions(platform: PlatformRetention, at: Date): Promise<number> {
  const before = new Date(at.getTime() - platform.retentionSessionDays * DAY_MS);
  const idleBefore = new Date(before.getTime() - env().SESSION_IDLE_MINUTES * 60_000);
  const { count } = await db().session.deleteMany({
    where: {
      employee: { accountId: platform.id },
      OR: [{ revokedAt: { lt: before } }, { expiresAt: { lt: before } }, { lastSeenAt: { lt: idleBefore } }],
    },
  });
  return count;
}

export type RetentionSweep = LeasedJob;

export function createRetentionSweep(options: RetentionSweepOptions = {}): RetentionSweep {
  const owner = options.owner ?? `retention_${process.pid}_${randomBytes(6).toString("hex")}`;
  const log = options.log ?? ((message: string) => console.error(`[retention-sweep] ${message}`));
  const intervalMs = options.intervalMs ?? RETENTION_SWEEP_INTERVAL_MS;
  return createLeasedJob({
    lease: RETENTION_SWEEP_LEASE,
    owner,
    intervalMs,
    pass: async () => {
      const result = await sweepRetention({ ...options, owner, intervalMs });
      if (result && (result.webhookPayloads > 0 || result.sessions > 0))
        log(`removed ${result.webhookPayloads} webhook payloads and ${result.sessions} ended sessions`);
    },
    log,
  });
}

/** Starts the process's sweep (once; server.mjs stops it on SIGTERM). */
export function startRetentionSweep(): RetentionSweep {
  return startLeasedJobOnce("retention-sweep", () => createRetentionSweep());
}
