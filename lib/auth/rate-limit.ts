import type { RateLimit } from "@/lib/api-keys/schemas";
import { processGlobal } from "@/lib/process-global";
import { env } from "@/lib/env";
import { countInRedis, redisFailed } from "@/lib/auth/rate-limit-redis";
import { rateCountOf, windowKey, windowOf, type RateCount } from "@/lib/auth/rate-window";

export type { RateCount } from "@/lib/auth/rate-window";

// Fixed windows aligned to the epoch: a key limited to `requests` per `perSeconds` gets a fresh count
// at every multiple of `perSeconds` seconds since 1970. One number per key and window is all a
// counter needs, so the same count works in this process's memory (exact for one process) and in
// Redis (one INCR for all processes, lib/auth/rate-limit-redis.ts). Every request counts, the refused
// ones too: it changes nothing for the client (the window resets at its end regardless of how many were
// refused in it) and keeps the shared count one atomic increment, never a read-then-write.

const local = processGlobal("api-key-rate-windows", () => ({
  counts: new Map<string, { count: number; end: number }>(),
  prunedAt: 0,
}));
const PRUNE_EVERY_MS = 1000;

/** Counts a key's request in this process alone (exact within it), and says whether it is admitted. */
export function countLocally(keyId: string, limit: RateLimit, now: number): RateCount {
  const { start, end } = windowOf(limit, now);
  const name = windowKey(keyId, limit, start);
  const window = local.counts.get(name);
  const count = window ? ++window.count : 1;
  if (!window) local.counts.set(name, { count, end });
  pruneEnded(now);
  return rateCountOf(limit, count, end, now);
}

/** Forgets ended windows, at most once a second: the map holds about one entry per key in use. */
function pruneEnded(now: number) {
  if (now - local.prunedAt < PRUNE_EVERY_MS) return;
  local.prunedAt = now;
  for (const [name, window] of local.counts) if (window.end <= now) local.counts.delete(name);
}

/**
 * Counts a key's request, and says whether it is admitted: in Redis where REDIS_URL is set (every
 * instance's requests in one count), else in this process. Redis down or slow: this process's own count
 * (fail open for the shared count, but each process still holds the key to its limit), logged once a minute.
 */
export async function takeRateLimitSlot(keyId: string, limit: RateLimit, now: number): Promise<RateCount> {
  const url = env().REDIS_URL;
  if (url === undefined) return countLocally(keyId, limit, now);
  try {
    return await countInRedis(url, keyId, limit, now);
  } catch (error) {
    redisFailed(error);
    return countLocally(keyId, limit, now);
  }
}

/** Tests: start every key's count afresh. */
export function resetLocalCounts(): void {
  local.counts.clear();
}
