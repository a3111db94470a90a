import type { RateLimit } from "@/lib/api-keys/schemas";

// A fixed window's arithmetic, shared by the process's own count and Redis's (lib/auth/rate-limit.ts).

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
