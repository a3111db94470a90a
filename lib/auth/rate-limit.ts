import type { RateLimit } from "@/lib/api-keys/schemas";
import { processGlobal } from "@/lib/process-global";

// Fixed windows aligned to the epoch: a key limited to `requests` per `perSeconds` gets a fresh count
// at every multiple of `perSeconds` seconds since 1970. One number per key and window is all a
// counter needs, so the same count works in this process's memory (exact for one process) and in
// Redis (one INCR for all processes, lib/auth/rate-limit-redis.ts). Every request counts, the refused
// ones too: it changes nothing for the client (the window resets at its end regardless of how many were
// refused in it) and keeps the shared count one atomic increment, never a read-then-write.

/** What a key's request found in its window: whether it is admitted, and what the response headers say. */
export type RateCount = {
  limit: RateLimit;
  admitted: boolean;
  /** Requests still admitted in this window (RateLimit's `r`). */
  remaining: number;
  /** Whole seconds until the window resets, at least 1 (RateLimit's `t`, Retry-After). */
  resetSeconds: number;
};

/** The window `now` falls in: its start (ms since the epoch) and end. */
export function windowOf(limit: RateLimit, now: number): { start: number; end: number } {
  const length = limit.perSeconds * 1000;
  const start = Math.floor(now / length) * length;
  return { start, end: start + length };
}

/** The outcome of the `count`-th request of a window ending at `end`. */
export function rateCountOf(limit: RateLimit, count: number, end: number, now: number): RateCount {
  return {
    limit,
    admitted: count <= limit.requests,
    remaining: Math.max(0, limit.requests - count),
    resetSeconds: Math.max(1, Math.ceil((end - now) / 1000)),
  };
}

/** The window's counter name: the key, the window's length (a changed limit starts afresh) and its start. */
export const windowKey = (keyId: string, limit: RateLimit, start: number) => `rl:${keyId}:${limit.perSeconds}:${start}`;

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

/** Counts a key's request, and says whether it is admitted. */
export async function countKeyRequest(keyId: string, limit: RateLimit, now: number): Promise<RateCount> {
  return countLocally(keyId, limit, now);
}

/** Tests: start every key's count afresh. */
export function resetLocalCounts(): void {
  local.counts.clear();
}
