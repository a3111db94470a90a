// The audit sealer's section of `npm run bench` (docs/performance.md): what sealing costs the server, against
// what a write costs it, on one server in one run. A write never waits for the seal (events are
// written unsealed; the sealer reads and marks them moments later, in its own transactions), but the
// sealer runs in the service process, so its CPU is the server's: this puts a figure on it.
import type { ChildProcess } from "node:child_process";
import autocannon from "autocannon";
import { cpuMs } from "./process-cpu";

export type SealFigures = {
  database: string;
  events: number;
  checkpoints: number;
  sealMs: number;
  sealCpuUsPerEvent: number;
  writeCpuMsPerRequest: number;
  /** Sealing one event's CPU over one write's: the share a write's own audit event adds to the server's work. */
  shareOfWrite: number;
};

type Harness = {
  database: { label: string; url: string };
  startServer: (env: Record<string, string>) => Promise<{ child: ChildProcess; baseURL: string }>;
  /** Runs `work` with the app's code pointed at the bench database (its db() client), then disconnects. */
  withDatabase: <T>(work: () => Promise<T>) => Promise<T>;
  secret: string;
  platformId: string;
};

const EVENTS = Number(process.env.BENCH_SEAL_EVENTS ?? 20_000);
const WRITES = 3_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Audit events straight into the database, unsealed, as `count` audited writes would have left them. */
async function insertEvents(platformId: string, count: number) {
  const { db } = await import("@/lib/db");
  const { newId } = await import("@/lib/ids/generate");
  const start = Date.now();
  for (let from = 0; from < count; from += 2_000)
    await db().auditEvent.createMany({
      data: Array.from({ length: Math.min(2_000, count - from) }, (_, offset) => ({
        id: newId("aud"),
        platformId,
        accountId: platformId,
        actedForAccountId: platformId,
        at: new Date(start + from + offset),
        actorType: "api_key" as const,
        actorId: "key_bench",
        action: "delegated_user.create",
        targetId: newId("du"),
        ip: "127.0.0.1",
        outcome: "success" as const,
        status: 201,
        requestId: newId("aud").replace("aud_", "req_"),
        details: { externalId: `bench-${from + offset}` },
      })),
    });
}

async function unsealedCount(platformId: string): Promise<number> {
  const { db } = await import("@/lib/db");
  return db().auditEvent.count({ where: { platformId, checkpointId: null } });
}

/** The write's server CPU per request, loaded for WRITES requests at 4 connections. */
async function writeCpu(pid: number, baseURL: string, secret: string): Promise<number> {
  let counter = 0;
  const options: autocannon.Options = {
    url: `${baseURL}/v1/delegated_users`,
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    requests: [
      { setupRequest: (request) => ({ ...request, body: JSON.stringify({ externalId: `seal-${counter++}` }) }) },
    ],
    connections: 4,
  };
  await autocannon({ ...options, amount: 500 });
  const before = cpuMs(pid);
  const result = await autocannon({ ...options, amount: WRITES });
  return (cpuMs(pid) - before) / result.requests.total;
}

export async function measureSealing({ database, startServer, withDatabase, secret, platformId }: Harness) {
  // Sealing every 5 s as in production; the webhook worker slowed so its polls do not count.
  const { child, baseURL } = await startServer({});
  const pid = child.pid!;
  try {
    const writeMs = await writeCpu(pid, baseURL, secret);
    return await withDatabase(async () => {
      // Whatever the writes left is sealed first; then the idle server's own CPU rate is taken.
      while ((await unsealedCount(platformId)) > 0) await sleep(200);
      const idleStart = cpuMs(pid);
      const idleFrom = Date.now();
      await sleep(3_000);
      const idleRate = (cpuMs(pid) - idleStart) / (Date.now() - idleFrom);
      const { db } = await import("@/lib/db");
      const checkpointsBefore = await db().auditCheckpoint.count({ where: { platformId } });
      // From before the insert: the sealer may pass while the rows go in.
      const before = cpuMs(pid);
      const from = Date.now();
      await insertEvents(platformId, EVENTS);
      while ((await unsealedCount(platformId)) > 0) await sleep(50);
      const elapsed = Date.now() - from;
      // The wait includes up to one sealer period of idling before its next pass: take the idle rate off.
      const sealCpu = Math.max(0, cpuMs(pid) - before - idleRate * elapsed);
      const checkpoints = (await db().auditCheckpoint.count({ where: { platformId } })) - checkpointsBefore;
      const usPerEvent = (sealCpu * 1000) / EVENTS;
      return {
        database: database.label,
        events: EVENTS,
        checkpoints,
        sealMs: elapsed,
        sealCpuUsPerEvent: Math.round(usPerEvent),
        writeCpuMsPerRequest: Math.round(writeMs * 1000) / 1000,
        shareOfWrite: Math.round((usPerEvent / 1000 / writeMs) * 1000) / 1000,
      } satisfies SealFigures;
    });
  } finally {
    child.kill("SIGTERM");
  }
}

export function printSealing(figures: SealFigures) {
  console.log(
    `\nAudit sealing on ${figures.database}: ${figures.events} events in ${figures.checkpoints} checkpoints, inserted and sealed within ${figures.sealMs} ms; ` +
      `${figures.sealCpuUsPerEvent} µs of server CPU per event, against ${figures.writeCpuMsPerRequest} ms per write on the same server: ` +
      `${(figures.shareOfWrite * 100).toFixed(1)} % of a write`,
  );
}
