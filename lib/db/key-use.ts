import { db } from "@/lib/db/client";
import { writeKeysLastUsed } from "@/lib/db/raw-rows";
import { databaseProvider } from "@/lib/env";
import { processGlobal } from "@/lib/process-global";

/** The keys used since the last batched write of lastUsedAt (PostgreSQL), with when (ms); one copy per process. */
const touches = processGlobal("api-key-touches", () => ({
  pending: new Map<string, number>(),
  timer: undefined as NodeJS.Timeout | undefined,
}));
const TOUCH_FLUSH_MS = 5_000;

/**
 * Records that a key was used at `now`, unless it was recorded within `everyMs` (the caller has read
 * lastUsedAt already and asks only when it is older). SQLite writes it at once: a local statement
 * costs no round trip. PostgreSQL writes it off the request's path, for every key used in the last
 * few seconds at once (flushKeyUses), so a key-authenticated read costs its two statements and no
 * more (a round trip to a database across the network costs more than the read itself).
 */
export async function recordKeyUse(id: string, now: number, everyMs: number): Promise<void> {
  if (databaseProvider() === "postgresql") {
    touches.pending.set(id, now);
    touches.timer ??= setTimeout(() => void flushKeyUses().catch(logFailure), TOUCH_FLUSH_MS).unref();
    return;
  }
  await db().apiKey.updateMany({
    where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now - everyMs) } }] },
    data: { lastUsedAt: new Date(now) },
  });
}

const logFailure = (error: Error) => console.error(`Could not record when API keys were last used: ${error.message}`);

/** Writes the pending lastUsedAt times in one statement, never moving one back (tests call it to see them at once). */
export async function flushKeyUses(): Promise<void> {
  clearTimeout(touches.timer);
  touches.timer = undefined;
  if (touches.pending.size === 0) return;
  const used = [...touches.pending];
  touches.pending.clear();
  await writeKeysLastUsed(used);
}
