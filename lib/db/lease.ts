import { db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";

// A named job that one process at a time runs (the SLA sweep, the audit sealer): whoever holds the
// WorkerLease row called `name` until its leaseUntil runs it; the others wait. No lock is held in
// between, so a holder that dies simply lets its lease run out and another process takes over.

/**
 * Takes the lease `name` for `owner` until `now + ms`, or renews it when `owner` already holds it.
 * Answers whether `owner` holds it now. The row count of a conditional write decides, so of several
 * processes asking at once exactly one wins: an update where the lease ran out (or is already
 * `owner`'s), else an insert of the first row, which the primary key lets only one process make.
 */
export async function takeLease({
  name,
  owner,
  ms,
  now = new Date(),
}: {
  name: string;
  owner: string;
  ms: number;
  now?: Date;
}): Promise<boolean> {
  const leaseUntil = new Date(now.getTime() + ms);
  const { count } = await db().workerLease.updateMany({
    where: { name, OR: [{ leaseUntil: { lt: now } }, { owner }] },
    data: { owner, leaseUntil },
  });
  if (count === 1) return true;
  try {
    await db().workerLease.create({ data: { name, owner, leaseUntil } });
    return true;
  } catch (error) {
    // The row exists (held by another process), or another process inserted it first.
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** Gives the lease up (a clean stop), so another process takes over at its next look instead of after the lease ran out. */
export async function releaseLease({ name, owner }: { name: string; owner: string }): Promise<void> {
  await db().workerLease.deleteMany({ where: { name, owner } });
}
