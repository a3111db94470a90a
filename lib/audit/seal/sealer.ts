import { createHash, randomBytes, sign } from "node:crypto";
import { db, inTransaction } from "@/lib/db";
import { takeLease } from "@/lib/db/lease";
import { createLeasedJob, startLeasedJobOnce, type LeasedJob } from "@/lib/db/leased-job";
import { env } from "@/lib/env";
import type { AuditCheckpoint } from "@/lib/generated/prisma/client";
import { auditEventJson } from "@/lib/audit/schemas";
import { newId } from "@/lib/ids/generate";
import { withScope } from "@/lib/tenancy";
import { emitResourceEvent } from "@/lib/webhooks/events";
import {
  checkpointHashJson,
  eventLeafJson,
  type CheckpointJson,
  type UnsignedCheckpointJson,
} from "@/lib/audit/seal/format";
import { leafHash, merkleRoot } from "@/lib/audit/seal/merkle";
import { auditSigningKey, recordSigningKey, type AuditSigningKey } from "@/lib/audit/seal/signing-key";
import { checkpointSchema } from "@/lib/audit/seal/schemas";

// The audit sealer (docs/operations.md, The verifiable audit trail): in the service process, one process at
// a time (the WorkerLease "audit-sealer"), a pass every 5 seconds appends to each platform with
// unsealed events a checkpoint over up to `batchSize` of them in (at, id) order, signed and chained to
// the platform's previous one. No write waits for it: events are written unsealed and sealed later.
// The chain cannot fork: (platformId, seq) is unique, so of two sealers that raced (a lease that ran out
// mid-pass) the second's checkpoint is refused and its transaction, marks on the events included, rolls back.

export const AUDIT_SEALER_LEASE = "audit-sealer";
export const AUDIT_SEAL_INTERVAL_MS = 5_000;

export type SealerOptions = {
  now?: () => Date;
  intervalMs?: number;
  leaseMs?: number;
  /** The most events one checkpoint covers: a backlog becomes several checkpoints in one pass. */
  batchSize?: number;
  owner?: string;
  key?: AuditSigningKey;
  log?: (message: string) => void;
};

type SealerSettings = Required<Omit<SealerOptions, "key">> & { key: () => AuditSigningKey };

function sealerSettings(options: SealerOptions): SealerSettings {
  const intervalMs = options.intervalMs ?? AUDIT_SEAL_INTERVAL_MS;
  return {
    now: options.now ?? (() => new Date()),
    intervalMs,
    leaseMs: options.leaseMs ?? Math.max(2 * intervalMs, 10_000),
    batchSize: options.batchSize ?? 1_000,
    owner: options.owner ?? `seal_${process.pid}_${randomBytes(6).toString("hex")}`,
    key: options.key ? () => options.key! : auditSigningKey,
    log: options.log ?? ((message: string) => console.error(`[audit-sealer] ${message}`)),
  };
}

/** A checkpoint as the API gives it. */
export function checkpointJson(row: Omit<AuditCheckpoint, "leafHashes">): CheckpointJson {
  return {
    id: row.id,
    platformId: row.platformId,
    seq: row.seq,
    fromEventId: row.fromEventId,
    toEventId: row.toEventId,
    count: row.count,
    eventsRoot: row.eventsRoot,
    previousHash: row.previousHash,
    keyId: row.keyId,
    sealedAt: row.sealedAt.toISOString(),
    hash: row.hash,
    signature: row.signature,
  };
}

/** Hashes and signs a checkpoint: hash over its canonical JSON, Ed25519 over the hash's 32 bytes. */
export function signCheckpoint(unsigned: UnsignedCheckpointJson, key: AuditSigningKey): CheckpointJson {
  const hash = createHash("sha256").update(checkpointHashJson(unsigned)).digest();
  return { ...unsigned, hash: hash.toString("hex"), signature: sign(null, hash, key.privateKey).toString("base64") };
}

/**
 * One pass, when this process holds (or can take) the lease: seals every platform's unsealed events.
 * Answers how many checkpoints it appended; 0 when another process holds the lease.
 */
export async function sealPendingEvents(options: SealerOptions = {}): Promise<number> {
  const settings = sealerSettings(options);
  const key = settings.key();
  const holdLease = () =>
    takeLease({ name: AUDIT_SEALER_LEASE, owner: settings.owner, ms: settings.leaseMs, now: settings.now() });
  // A GROUP BY the database answers from the [checkpointId, platformId, ...] index (Prisma's
  // `distinct` would read every unsealed row into the process and drop duplicates there).
  const platforms = await db().auditEvent.groupBy({
    by: ["platformId"],
    where: { checkpointId: null, platformId: { not: null } },
  });
  // Nothing pending (the usual case): no write at all, not even the lease's.
  if (platforms.length === 0 || !(await holdLease())) return 0;
  await recordSigningKey(key);
  let sealed = 0;
  for (const { platformId } of platforms) {
    // A backlog is several checkpoints: the lease is renewed before each.
    while (await holdLease()) {
      if (!(await sealBatch(platformId!, key, settings))) break;
      sealed += 1;
    }
  }
  return sealed;
}

/** Appends the platform's next checkpoint over its oldest unsealed events (none when it has none). */
export async function sealBatch(
  platformId: string,
  key: AuditSigningKey,
  { now, batchSize }: Pick<SealerSettings, "now" | "batchSize">,
): Promise<CheckpointJson | null> {
  return inTransaction(async () => {
    const rows = await db().auditEvent.findMany({
      where: { checkpointId: null, platformId },
      orderBy: [{ at: "asc" }, { id: "asc" }],
      take: batchSize,
    });
    if (rows.length === 0) return null;
    const previous = await db().auditCheckpoint.findFirst({
      where: { platformId },
      orderBy: { seq: "desc" },
      select: { seq: true, hash: true },
    });
    const leaves = rows.map((row) => leafHash(eventLeafJson(auditEventJson(row))));
    const sealedAt = now();
    const checkpoint = signCheckpoint(
      {
        id: newId("ckp"),
        platformId,
        seq: (previous?.seq ?? 0) + 1,
        fromEventId: rows[0]!.id,
        toEventId: rows.at(-1)!.id,
        count: rows.length,
        eventsRoot: merkleRoot(leaves).toString("hex"),
        previousHash: previous?.hash ?? null,
        keyId: key.id,
        sealedAt: sealedAt.toISOString(),
      },
      key,
    );
    await db().auditCheckpoint.create({ data: { ...checkpoint, sealedAt, leafHashes: Buffer.concat(leaves) } });
    const { count } = await db().auditEvent.updateMany({
      where: { id: { in: rows.map((row) => row.id) }, checkpointId: null },
      data: { checkpointId: checkpoint.id },
    });
    // Another sealer marked some of them meanwhile: this checkpoint would claim events it does not hold.
    if (count !== rows.length)
      throw new Error(`checkpoint ${checkpoint.seq} of ${platformId} lost a race; rolled back`);
    await withScope({ platformId, accountId: platformId }, () =>
      emitResourceEvent("audit.checkpoint", checkpointSchema, checkpoint, { now: sealedAt }),
    );
    return checkpoint;
  });
}

export type AuditSealer = LeasedJob;

export function createAuditSealer(options: SealerOptions = {}): AuditSealer {
  const settings = sealerSettings(options);
  return createLeasedJob({
    lease: AUDIT_SEALER_LEASE,
    owner: settings.owner,
    intervalMs: settings.intervalMs,
    pass: () => sealPendingEvents({ ...settings, key: settings.key() }),
    log: settings.log,
  });
}

/** Starts the process's sealer (once; server.mjs stops it on SIGTERM). */
export function startAuditSealer(): AuditSealer {
  return startLeasedJobOnce("audit-sealer", () =>
    createAuditSealer({ intervalMs: env().AUDIT_SEAL_INTERVAL_MS ?? AUDIT_SEAL_INTERVAL_MS }),
  );
}
