import { createClient } from "redis";
import { rateCountOf, windowKey, windowOf, type RateCount } from "@/lib/auth/rate-window";
import type { RateLimit } from "@/lib/api-keys/schemas";
import { processGlobal } from "@/lib/process-global";

// The count every instance shares where REDIS_URL is set: one round trip per request, a script that
// increments the window's counter and, on its first request, makes it expire with the window (Redis
// runs a script atomically, so two instances never both see the same count).

const INCREMENT = `local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

/** A count that takes longer than this is given up on (the request then counts locally): Redis is next door or down. */
const COUNT_TIMEOUT_MS = 250;
const LOG_EVERY_MS = 60_000;

const newClient = (url: string) =>
  createClient({
    url,
    // While Redis is unreachable a command fails at once instead of waiting in a queue: the request is
    // counted locally and answered, and the client keeps reconnecting (at most every 2 s).
    disableOfflineQueue: true,
    socket: { connectTimeout: 1000, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2000) },
  });
type Client = ReturnType<typeof newClient>;

/** A client, and its first connection: requests wait for that one (briefly), never for a reconnection. */
type Connection = { client: Client; firstConnect: Promise<unknown>; firstSettled: boolean };

const shared = processGlobal("rate-limit-redis", () => ({
  connections: new Map<string, Connection>(),
  loggedAt: Number.NEGATIVE_INFINITY,
}));

/** The process's one client for `url`, connecting in the background; commands fail at once while it is down. */
function connectionTo(url: string): Connection {
  const known = shared.connections.get(url);
  if (known) return known;
  const client = newClient(url);
  client.on("error", (error: Error) => logUnreachable(error));
  const connection: Connection = { client, firstConnect: Promise.resolve(), firstSettled: false };
  connection.firstConnect = client
    .connect()
    .catch((error: Error) => logUnreachable(error))
    .finally(() => (connection.firstSettled = true));
  shared.connections.set(url, connection);
  return connection;
}

/** `work`, or a rejection once it took longer than COUNT_TIMEOUT_MS. */
async function withinTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${COUNT_TIMEOUT_MS} ms`)), COUNT_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Says so at most once a minute: an outage must not flood the log with one line per request. */
function logUnreachable(error: Error) {
  const now = Date.now();
  if (now - shared.loggedAt < LOG_EVERY_MS) return;
  shared.loggedAt = now;
  console.error(
    `Rate limits: Redis unreachable (${error.message}); each process counts its own requests until it is back`,
  );
}

/** Counts a key's request in Redis (every instance's count), or throws when Redis does not answer in time. */
export async function countInRedis(url: string, keyId: string, limit: RateLimit, now: number): Promise<RateCount> {
  const { start, end } = windowOf(limit, now);
  const { client, firstConnect, firstSettled } = connectionTo(url);
  if (!client.isReady) {
    if (firstSettled) throw new Error("not connected");
    await withinTimeout(firstConnect);
  }
  // The counter outlives its window by a second: a late request of an instance with a lagging clock still finds it.
  const ttl = String(end - now + 1000);
  const count = await withinTimeout(
    client.eval(INCREMENT, { keys: [windowKey(keyId, limit, start)], arguments: [ttl] }),
  );
  return rateCountOf(limit, Number(count), end, now);
}

/** Why a count fell back to the process's own, logged at most once a minute. */
export const redisFailed = (error: unknown) =>
  logUnreachable(error instanceof Error ? error : new Error(String(error)));

/** Tests: close the clients, so the next count connects afresh (to another REDIS_URL, say). */
export async function closeRedisClients(): Promise<void> {
  const connections = [...shared.connections.values()];
  shared.connections.clear();
  shared.loggedAt = Number.NEGATIVE_INFINITY;
  for (const { client } of connections) client.destroy();
}
