// How the server stops (server.mjs): at SIGTERM or SIGINT readiness goes 503 at once (GET /readyz), the
// server keeps serving for SHUTDOWN_DELAY_MS so a load balancer sees that and stops sending, then stops
// accepting connections and lets the requests in flight finish for up to SHUTDOWN_GRACE_MS. Meanwhile the
// background workers (webhook delivery, SLA sweep, audit sealer) finish what they hold and give up their
// leases. Then the API keys' usage counts are written, the database is closed and the process exits 0.
import { setTimeout as sleep } from "node:timers/promises";
import { flushLogs } from "./observability/log.mjs";

const DRAINING = Symbol.for("platform-compliance.draining");
const slot = (name) => globalThis[Symbol.for(`platform-compliance.${name}`)];

/** SHUTDOWN_DELAY_MS and SHUTDOWN_GRACE_MS, checked (a bad value is named). */
export function shutdownSettings(environment = process.env) {
  const read = (name, fallback) => {
    const text = environment[name];
    if (text === undefined || text === "") return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < 0 || value > 3_600_000)
      throw new Error(`${name} must be a whole number of milliseconds from 0 to 3600000 (got ${JSON.stringify(text)})`);
    return value;
  };
  return { delayMs: read("SHUTDOWN_DELAY_MS", 0), graceMs: read("SHUTDOWN_GRACE_MS", 30_000) };
}

/** Whether the server has stopped accepting connections: its answers then close theirs (server.mjs). */
export const lifecycle = { closing: false };

/** Installs the handlers of SIGTERM and SIGINT for `server`; `logger` says what happens. */
export function stopOnSignals(server, { delayMs, graceMs }, logger) {
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      globalThis[DRAINING] = true;
      logger.info({ signal, delayMs, graceMs }, `${signal}: stopping (readiness now 503; serving ${delayMs} ms more)`);
      // A stop that hangs past every bound still ends, and says so.
      setTimeout(() => exit(logger, 1, "The stop took too long; exiting anyway"), delayMs + graceMs + 20_000).unref();
      stop(server, { delayMs, graceMs }, logger).then(
        () => exit(logger, 0, "Stopped"),
        (error) => exit(logger, 1, `The stop failed: ${error?.message ?? error}`),
      );
    });
  }
}

async function stop(server, { delayMs, graceMs }, logger) {
  const background = Promise.allSettled(
    ["webhook-worker", "sla-sweep", "retention-sweep", "audit-sealer"].map((name) => slot(name)?.stop()),
  );
  if (delayMs > 0) await sleep(delayMs);
  const drained = await closeServer(server, graceMs);
  if (!drained) logger.warn({ graceMs }, `Requests still running after ${graceMs} ms: their connections are closed`);
  await background;
  // Usage counts kept in memory for a few seconds (lib/api-keys/usage.ts), written once the last requests are answered.
  await slot("key-usage")?.stop();
  await slot("close-database")?.();
  // The spans still held in the exporter's batch (tracing on only).
  await slot("stop-tracing")?.();
}

/** Stops accepting; true when every connection ended within `graceMs`, false when the rest were cut. */
async function closeServer(server, graceMs) {
  lifecycle.closing = true;
  const closed = new Promise((resolve) => server.close(() => resolve(true)));
  // Keep-alive connections between requests are closed as they go idle (an answer sent while closing
  // says Connection: close too).
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  const drained = await Promise.race([closed, sleep(graceMs, false)]);
  clearInterval(sweep);
  if (!drained) server.closeAllConnections();
  return drained;
}

function exit(logger, code, message) {
  logger[code === 0 ? "info" : "error"]({ exitCode: code }, message);
  flushLogs();
  process.exit(code);
}
