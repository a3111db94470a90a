import { randomBytes } from "node:crypto";
import { countMetric } from "@/lib/observability/count";
import { log as appLog } from "@/lib/observability/log.mjs";
import { systemActions } from "@/lib/audit/system-actions";
import { writeAuditEvent } from "@/lib/audit/trail";
import { decryptSecret } from "@/lib/auth/encryption";
import { db, inTransaction } from "@/lib/db";
import { env } from "@/lib/env";
import { processSlot } from "@/lib/process-global";
import type { Prisma, WebhookDeliveryStatus } from "@/lib/generated/prisma/client";
import { sendExpiryNotices } from "@/lib/webhooks/expiry-notices";
import { signDelivery } from "@/lib/webhooks/signing";
import { type LookupAll, OutboundError, outboundRequest, webhookPolicy } from "@/lib/net/outbound";

// The delivery worker: runs inside the service process (no extra service to operate). Every bit of
// state is in the database (WebhookDelivery), so it resumes after a restart or a crash, and any
// number of processes can run one: each takes a delivery with a lease (a conditional update that
// only one of them can win) before it sends, so no attempt is sent twice at once.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Wait after the 1st, 2nd, ... failed attempt; the last one repeats. */
export const RETRY_DELAYS_MS = [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR];
/** A delivery not answered with a 2xx within this long of its event is failed for good. */
export const GIVE_UP_AFTER_MS = 3 * DAY;
export const DELIVERY_TIMEOUT_MS = 10_000;
export const RESPONSE_BODY_LIMIT = 1024;
const USER_AGENT = "PlatformCompliance-Webhooks/1";

/** The wait before the next attempt after `attempts` failed ones, ±10 % so retries of many deliveries spread out. */
export function retryDelay(attempts: number, random: () => number = Math.random): number {
  const base = RETRY_DELAYS_MS[Math.min(Math.max(attempts, 1), RETRY_DELAYS_MS.length) - 1]!;
  return Math.round(base * (0.9 + 0.2 * random()));
}

export type AttemptOutcome = {
  delivered: boolean;
  statusCode: number | null;
  body: string | null;
  error: string | null;
};

/**
 * POSTs `body` to `url` through the outbound gate (lib/net/outbound.ts): only to an address the webhook
 * rules allow, checked after DNS resolution. A 2xx is delivered; a redirect is not followed (it could
 * point anywhere) and counts as a failure. The whole attempt, connection to last byte, is bounded by
 * `timeoutMs`; the answer's body is kept to 1 KiB. Throws OutboundError when the gate refuses the
 * address or no HTTP answer came.
 */
export async function postWebhook({
  url,
  body,
  headers,
  timeoutMs = DELIVERY_TIMEOUT_MS,
  lookup,
}: {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs?: number;
  lookup?: LookupAll;
}): Promise<AttemptOutcome> {
  const answer = await outboundRequest({
    url,
    policy: webhookPolicy(),
    method: "POST",
    headers: { "Content-Type": "application/json", "User-Agent": USER_AGENT, ...headers },
    body,
    timeoutMs,
    maxBytes: RESPONSE_BODY_LIMIT,
    lookup,
  });
  const code = answer.status;
  const text = answer.body.toString("utf8");
  if (code >= 200 && code < 300) return { delivered: true, statusCode: code, body: text, error: null };
  const error = code >= 300 && code < 400 ? `redirect (HTTP ${code}) not followed` : `HTTP ${code}`;
  return { delivered: false, statusCode: code, body: text, error };
}

export type WorkerOptions = {
  /** The clock: tests move it to check backoff, give-up and auto-disable without waiting. */
  now?: () => Date;
  /** How long to sleep when there is nothing due. */
  pollMs?: number;
  timeoutMs?: number;
  /** How long a taken delivery stays this worker's; a crashed worker's lease runs out and another takes over. */
  leaseMs?: number;
  /** Deliveries taken (and sent concurrently) per round. */
  batchSize?: number;
  /** How often to look for API keys that need an api_key.expiring notice. */
  expiryCheckMs?: number;
  owner?: string;
  random?: () => number;
  lookup?: LookupAll;
  log?: (message: string) => void;
};

export type WebhookWorker = {
  /** One round: take what is due, send it, record the results. Returns how many were sent. */
  runOnce(): Promise<number>;
  /** Rounds until stop(): back to back while work is waiting, else every pollMs. */
  start(): void;
  /** Wake a sleeping worker now (work was just committed in this process). */
  nudge(): void;
  /** Takes no new work, waits (at most `graceMs`) for the attempts in flight, then resolves. */
  stop(graceMs?: number): Promise<void>;
  readonly owner: string;
};

/** The options with their defaults filled in. */
type WorkerSettings = Required<Omit<WorkerOptions, "lookup">> & Pick<WorkerOptions, "lookup">;

function workerSettings(options: WorkerOptions): WorkerSettings {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  return {
    now: options.now ?? (() => new Date()),
    pollMs: options.pollMs ?? 1000,
    timeoutMs,
    // Longer than an attempt can take, so a live worker never loses a lease in the middle of one.
    leaseMs: options.leaseMs ?? timeoutMs + 20_000,
    batchSize: options.batchSize ?? 10,
    expiryCheckMs: options.expiryCheckMs ?? 15 * MINUTE,
    owner: options.owner ?? `worker_${process.pid}_${randomBytes(6).toString("hex")}`,
    random: options.random ?? Math.random,
    lookup: options.lookup,
    log: options.log ?? ((message: string) => appLog.warn({ component: "webhooks" }, `[webhooks] ${message}`)),
  };
}

export function createWebhookWorker(options: WorkerOptions = {}): WebhookWorker {
  const settings = workerSettings(options);
  const { now, pollMs, timeoutMs, batchSize, expiryCheckMs, owner, log } = settings;

  let stopping = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  let lastExpiryCheck = -Infinity;

  async function runOnce(): Promise<number> {
    const taken = await leaseDueDeliveries(settings, () => stopping);
    await Promise.all(
      taken.map((id) =>
        attemptDelivery(settings, id).catch((error) => log(`delivery ${id}: ${(error as Error).message}`)),
      ),
    );
    return taken.length;
  }

  async function round() {
    const at = now().getTime();
    if (at - lastExpiryCheck >= expiryCheckMs) {
      lastExpiryCheck = at;
      await sendExpiryNotices({ now: now() });
    }
    return runOnce();
  }

  const sleep = (ms: number) => wakeableSleep(ms, (next) => (wake = next));

  return {
    owner,
    runOnce,
    start() {
      if (loop) return;
      stopping = false;
      loop = (async () => {
        while (!stopping) {
          let busy = false;
          try {
            busy = (await round()) === batchSize;
          } catch (error) {
            log(`round failed: ${(error as Error).message}`);
          }
          if (!busy && !stopping) await sleep(pollMs);
        }
      })();
    },
    nudge() {
      wake?.();
    },
    async stop(graceMs = timeoutMs + 2_000) {
      stopping = true;
      wake?.();
      if (!loop) return;
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([loop, gaveUp]);
      clearTimeout(timer);
      loop = undefined;
    },
  };
}

/** Sleeps `ms`; `setWake` is handed the function that ends the sleep early, and undefined once it has ended. */
function wakeableSleep(ms: number, setWake: (wake: (() => void) | undefined) => void) {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      setWake(undefined);
      resolve();
    }
    setWake(done);
  });
}

const dueWhere = (at: Date): Prisma.WebhookDeliveryWhereInput => ({
  status: "pending",
  nextAttemptAt: { lte: at },
  OR: [{ leaseUntil: null }, { leaseUntil: { lt: at } }],
});

/** Takes (leases) up to batchSize due deliveries for this worker; stops taking once the worker is stopping. */
async function leaseDueDeliveries(
  { now, batchSize, leaseMs, owner }: WorkerSettings,
  isStopping: () => boolean,
): Promise<string[]> {
  const at = now();
  const due = await db().webhookDelivery.findMany({
    // Deliveries of a disabled endpoint wait (they go out if it is enabled again within 3 days).
    where: { ...dueWhere(at), endpoint: { enabled: true, deletedAt: null } },
    orderBy: [{ nextAttemptAt: "asc" }, { id: "asc" }],
    // More than one round's worth: another worker may take some of them first.
    take: batchSize * 3,
    select: { id: true },
  });
  const taken: string[] = [];
  for (const { id } of due) {
    if (isStopping() || taken.length === batchSize) break;
    // The lease: only one worker's update can still find the delivery free.
    const { count } = await db().webhookDelivery.updateMany({
      where: { id, ...dueWhere(at) },
      data: { leaseUntil: new Date(at.getTime() + leaseMs), leaseOwner: owner },
    });
    if (count === 1) taken.push(id);
  }
  return taken;
}

type LeasedDelivery = Prisma.WebhookDeliveryGetPayload<{ include: { endpoint: true } }>;

/** One attempt at a delivery this worker holds: send it, record the outcome, and give up on a dead endpoint. */
async function attemptDelivery(settings: WorkerSettings, id: string) {
  const { now, owner, random, log } = settings;
  const delivery = await db().webhookDelivery.findUnique({ where: { id }, include: { endpoint: true } });
  if (!delivery || delivery.leaseOwner !== owner) return;
  const attemptedAt = now();
  const outcome = await sendDelivery(settings, delivery, attemptedAt);

  const finishedAt = now();
  let status: WebhookDeliveryStatus = "delivered";
  let nextAttemptAt: Date | null = null;
  if (!outcome.delivered) {
    countMetric("webhook_deliveries_failed_total");
    const next = new Date(finishedAt.getTime() + retryDelay(delivery.attempts + 1, random));
    const giveUpAt = delivery.occurredAt.getTime() + GIVE_UP_AFTER_MS;
    if (next.getTime() > giveUpAt) status = "failed";
    else [status, nextAttemptAt] = ["pending", next];
  }
  const { count } = await db().webhookDelivery.updateMany({
    // Still ours and still pending: a delivery whose endpoint was deleted meanwhile stays failed.
    where: { id, leaseOwner: owner, status: "pending" },
    data: {
      status,
      attempts: { increment: 1 },
      responseStatusCode: outcome.statusCode,
      responseBody: outcome.body,
      lastError: outcome.error,
      lastAttemptAt: attemptedAt,
      nextAttemptAt,
      leaseUntil: null,
      leaseOwner: null,
    },
  });
  if (count === 0) log(`delivery ${id}: changed while it was being sent; this attempt's result was not recorded`);
  if (status === "failed") await disableIfDead(delivery.endpoint.id, delivery.id, finishedAt, log);
}

/** Signs and POSTs the delivery; a refused address or a failure to send is an outcome too, never a throw. */
async function sendDelivery(
  { timeoutMs, lookup, log }: WorkerSettings,
  delivery: LeasedDelivery,
  attemptedAt: Date,
): Promise<AttemptOutcome> {
  const { endpoint, id } = delivery;
  const body = JSON.stringify({
    id: delivery.id,
    type: delivery.eventType,
    data: delivery.eventData,
    occurredAt: delivery.occurredAt.toISOString(),
    attemptedAt: attemptedAt.toISOString(),
  });
  try {
    const headers = signDelivery({
      id: delivery.id,
      body,
      timestamp: attemptedAt.getTime() / 1000,
      privateKeyPem: decryptSecret(endpoint.privateKey, endpoint.id),
    });
    return await postWebhook({ url: endpoint.url, body, headers, timeoutMs, lookup });
  } catch (error) {
    // The tenant reads `message`; the service's log gets the detail (the address a name resolved to,
    // the system's error code).
    if (error instanceof OutboundError) {
      log(`delivery ${id}: ${error.detail}`);
      return { delivered: false, statusCode: error.status, body: null, error: error.message };
    }
    log(`delivery ${id}: could not send: ${(error as Error).message}`);
    return { delivered: false, statusCode: null, body: null, error: "could not send (internal error)" };
  }
}

/**
 * Called when a delivery gave up (its event is 3 days old and it never got a 2xx): when nothing
 * else reached the endpoint in those 3 days either, it is dead, and is turned off (audited), so
 * the service stops spending attempts on it. Its owner can turn it on again.
 */
async function disableIfDead(endpointId: string, deliveryId: string, at: Date, log: (message: string) => void) {
  const since = new Date(at.getTime() - GIVE_UP_AFTER_MS);
  const reached = await db().webhookDelivery.findFirst({
    where: { webhookEndpointId: endpointId, status: "delivered", lastAttemptAt: { gte: since } },
    select: { id: true },
  });
  if (reached) return;
  await inTransaction(async () => {
    const { count } = await db().webhookEndpoint.updateMany({
      where: { id: endpointId, enabled: true, deletedAt: null },
      data: { enabled: false, disabledAt: at },
    });
    if (count !== 1) return;
    const endpoint = await db().webhookEndpoint.findUniqueOrThrow({
      where: { id: endpointId },
      include: { account: { select: { platformId: true } } },
    });
    await writeAuditEvent({
      actor: null,
      platformId: endpoint.account.platformId,
      actedForAccountId: endpoint.accountId,
      action: systemActions.webhookAutoDisable,
      targetId: endpointId,
      ip: null,
      status: 200,
      requestId: `webhook_worker_${randomBytes(8).toString("hex")}`,
      details: {
        reason: "no delivery succeeded for 3 days",
        lastFailedDeliveryId: deliveryId,
        before: { enabled: true },
        after: { enabled: false, disabledAt: at },
        url: endpoint.url,
      },
    });
  });
  log(`endpoint ${endpointId} disabled: no delivery succeeded for 3 days`);
}

/** server.mjs finds it under the same global symbol. */
const running = processSlot<WebhookWorker>("webhook-worker");

/**
 * Starts the process's worker (once: a second call returns the running one). server.mjs finds it
 * under the same global symbol to stop it on SIGTERM.
 */
export function startWebhookWorker(): WebhookWorker {
  const started = running.get();
  if (started) return started;
  const worker = createWebhookWorker({ pollMs: env().WEBHOOK_POLL_MS });
  running.set(worker);
  worker.start();
  return worker;
}

/** Wakes this process's worker, if it runs, to send what was just committed without waiting for the next poll. */
export function nudgeWebhookWorker() {
  running.get()?.nudge();
}
