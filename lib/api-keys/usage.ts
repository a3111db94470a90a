import { db, tenantDb } from "@/lib/db";
import { flushKeyUses } from "@/lib/api-keys/last-use";
import { addKeyUsage } from "@/lib/api-keys/store";
import { notFound } from "@/lib/errors";
import { processGlobal } from "@/lib/process-global";

// A key's requests per UTC day by outcome, counted without a database write per request: each process
// counts in memory (a Map increment on the request's path) and adds its counts to ApiKeyUsageDay every
// few seconds and at a clean stop, one upsert per key, day and outcome that adds to what is there. Every
// process adds only its own increments, so the totals are exact once flushed, however many processes.

export const OUTCOMES = ["ok", "client_error", "rate_limited", "denied"] as const;
export type Outcome = (typeof OUTCOMES)[number];

/**
 * A response's outcome for its key: 2xx and 3xx ok, 401 and 403 denied, 429 rate_limited, other 4xx
 * client_error. A 5xx is not counted: it is the service's failure, not anything the key's caller did,
 * and the contract's four outcomes have no place for it (the logs and the request id tell of it).
 */
export function outcomeOf(status: number): Outcome | null {
  if (status < 400) return "ok";
  if (status === 401 || status === 403) return "denied";
  if (status === 429) return "rate_limited";
  if (status < 500) return "client_error";
  return null;
}

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** One process's counts not yet added to the table, and the flush that adds them. */
export type UsageCounter = {
  /** Counts a key-authenticated response (its status) at `now`: a Map increment, nothing else. */
  count(keyId: string, status: number, now?: number): void;
  /** Adds the counts so far to the table (and keeps, for the next flush, any it could not add). */
  flush(): Promise<void>;
  /** How many key-day-outcome rows wait for the next flush. */
  readonly pending: number;
};

/** Adds one count to its row (addKeyUsage; tests pass one that fails). */
type AddUsage = (row: { apiKeyId: string; day: string; outcome: Outcome; count: number }) => Promise<void>;

/** A counter (the process has one, countKeyUsage's; tests make more to act as several processes). */
export function createUsageCounter({
  flushEveryMs,
  add = addKeyUsage,
}: { flushEveryMs?: number; add?: AddUsage } = {}): UsageCounter {
  let counts = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  // The day's text, computed again only when a request falls outside it.
  let day = { start: 0, end: 0, text: "" };
  const flush = async () => {
    clearTimeout(timer);
    timer = undefined;
    const taken = counts;
    counts = new Map();
    await addCounts(taken, add, (key, count) => counts.set(key, (counts.get(key) ?? 0) + count));
  };
  return {
    count(keyId, status, now = Date.now()) {
      const outcome = outcomeOf(status);
      if (outcome === null) return;
      if (now < day.start || now >= day.end) {
        const start = now - (now % DAY_MS);
        day = { start, end: start + DAY_MS, text: dayOf(now) };
      }
      const key = `${keyId} ${day.text} ${outcome}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      if (flushEveryMs !== undefined) timer ??= setTimeout(() => void flush().catch(logFailure), flushEveryMs).unref();
    },
    flush,
    get pending() {
      return counts.size;
    },
  };
}

/** Adds each count to its row; on a failure, the ones not added go back (`keep`) for the next flush. */
async function addCounts(
  taken: Map<string, number>,
  add: AddUsage,
  keep: (key: string, count: number) => void,
): Promise<void> {
  const rows = [...taken];
  for (let index = 0; index < rows.length; index += 1) {
    const [key, count] = rows[index]!;
    const [apiKeyId, day, outcome] = key.split(" ") as [string, string, Outcome];
    try {
      await add({ apiKeyId, day, outcome, count });
    } catch (error) {
      for (const [rest, restCount] of rows.slice(index)) keep(rest, restCount);
      throw error;
    }
  }
}

const logFailure = (error: Error) => console.error(`Could not record API key usage: ${error.message}`);

/** How often a process adds its counts: the usage endpoint's figures lag by at most this. */
export const USAGE_FLUSH_MS = 5_000;

const processCounter = processGlobal("api-key-usage", () => createUsageCounter({ flushEveryMs: USAGE_FLUSH_MS }));

/** Counts a key-authenticated response of this process (the request wrapper's settle stage). */
export const countKeyUsage = (keyId: string, status: number, now?: number) => processCounter.count(keyId, status, now);

/** Adds this process's counts now (a clean stop; tests). */
export const flushKeyUsage = () => processCounter.flush();

// A clean stop (server.mjs, SIGTERM, once the connections are closed) writes what waits: the counts,
// and the keys' last uses that PostgreSQL writes in batches (lib/api-keys/last-use.ts).
processGlobal("key-usage", () => ({
  stop: () =>
    Promise.allSettled([flushKeyUsage(), flushKeyUses()]).then((results) => {
      for (const result of results) if (result.status === "rejected") logFailure(result.reason as Error);
    }),
}));

export const USAGE_DAYS = 30;

export type UsageDay = { date: string } & Record<Outcome, number>;

/**
 * The scope's key's requests per UTC day for the last 30 days, today included, oldest first, zeros
 * filled. Flushed counts only: today's figures lag by at most USAGE_FLUSH_MS per process. Another
 * account's key is not found, as the key itself would be.
 */
export async function readKeyUsage({ keyId, now = Date.now() }: { keyId: string; now?: number }) {
  const key = await tenantDb().apiKey.findUnique({ where: { id: keyId }, select: { id: true } });
  if (!key) throw notFound("API key");
  const dates = Array.from({ length: USAGE_DAYS }, (_, index) => dayOf(now - (USAGE_DAYS - 1 - index) * DAY_MS));
  // Not tenant data by itself: confined through its key, found in the scope just above.
  const rows = await db().apiKeyUsageDay.findMany({ where: { apiKeyId: key.id, day: { gte: dates[0]! } } });
  const days = new Map<string, UsageDay>(
    dates.map((date) => [date, { date, ok: 0, client_error: 0, rate_limited: 0, denied: 0 }]),
  );
  for (const row of rows) {
    const day = days.get(row.day);
    if (day && (OUTCOMES as readonly string[]).includes(row.outcome)) day[row.outcome as Outcome] += row.count;
  }
  return { days: [...days.values()] };
}
