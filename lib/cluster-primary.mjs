// The node:cluster primary behind WEB_CONCURRENCY=N (server.mjs): N worker processes, each a whole
// server (Next.js, the start-up work of lib/startup.ts, a webhook worker), share one port; the
// primary hands each new connection to the next worker in turn. Nothing the workers must agree on
// lives in their memory: sessions, throttles, TOTP steps, idempotency keys and webhook leases are
// rows in the database, and the encryption key and setup token are files beside it.
import cluster from "node:cluster";

/** A worker that dies is replaced after this long, doubled for each other death in the last minute, up to MAX_RESTART_DELAY_MS. */
const RESTART_DELAY_MS = 500;
const MAX_RESTART_DELAY_MS = 30_000;
const RECENT_MS = 60_000;

/**
 * Forks the first worker alone: it runs the start-up work that must happen once (migrations, the
 * encryption key, printing the setup link) before the others start, and when it cannot start (a
 * refused setting, say) the primary exits with its code instead of forking more. Then the rest.
 * A worker that dies unexpectedly is replaced, with a growing delay when deaths come quickly.
 * SIGTERM or SIGINT goes to every worker, which finishes cleanly (server.mjs); the primary exits
 * once all have, with 0 when all stopped cleanly.
 * @param {{ workers: number, exec: string, origin: (port: number) => string, stopGraceMs: number }} options
 *   stopGraceMs: how long the workers have to stop (their SHUTDOWN_DELAY_MS and SHUTDOWN_GRACE_MS, and
 *   some more); past it the primary kills them.
 */
export function runPrimary({ workers: wanted, exec, origin, stopGraceMs }) {
  // Workers run server.mjs itself (not whatever script imported it, such as scripts/start.mjs),
  // with this process's Node options, environment and working directory.
  cluster.setupPrimary({ exec });
  const pool = {
    wanted,
    origin,
    live: new Set(),
    deaths: [],
    pendingRestarts: new Set(),
    ready: 0,
    listening: false,
    stopping: false,
    failedStop: false,
    stopGraceMs,
  };
  console.log(`Starting ${wanted} worker processes (WEB_CONCURRENCY=${wanted})`);
  fork(pool);
  stopOnSignals(pool);
}

/** @param {number | undefined} replacing the id of the worker this one replaces */
function fork(pool, replacing) {
  const worker = cluster.fork();
  let isReady = false;
  pool.live.add(worker);
  worker.on("listening", (address) => {
    if (isReady) return;
    isReady = true;
    pool.ready += 1;
    console.log(
      `Worker ${worker.id} (pid ${worker.process.pid}) is ready${replacing ? `, replacing worker ${replacing}` : ""}`,
    );
    if (worker.id === 1) for (let i = 1; i < pool.wanted; i += 1) fork(pool);
    if (!pool.listening && pool.ready === pool.wanted) {
      pool.listening = true;
      console.log(`Listening on ${pool.origin(address.port)} with ${pool.wanted} worker processes`);
    }
  });
  worker.on("exit", (code, signal) => {
    pool.live.delete(worker);
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    if (pool.stopping) {
      if (code !== 0) pool.failedStop = true;
      console.log(`Worker ${worker.id} (pid ${worker.process.pid}) stopped (${how})`);
      if (pool.live.size === 0) finish(pool);
      return;
    }
    if (worker.id === 1 && !isReady) {
      // The first worker could not start: the others would fail the same way.
      console.error(`Worker ${worker.id} stopped during start-up (${how}); not starting the others.`);
      process.exit(code || 1);
    }
    replaceLater(pool, worker, how);
  });
}

/** A replacement for a worker that died, after a delay that doubles with each other death in the last minute. */
function replaceLater(pool, worker, how) {
  const now = Date.now();
  pool.deaths.push(now);
  while (pool.deaths.length && pool.deaths[0] < now - RECENT_MS) pool.deaths.shift();
  const delay = Math.min(MAX_RESTART_DELAY_MS, RESTART_DELAY_MS * 2 ** (pool.deaths.length - 1));
  console.error(
    `Worker ${worker.id} (pid ${worker.process.pid}) died unexpectedly (${how}); starting a replacement in ${delay / 1000} s`,
  );
  const timer = setTimeout(() => {
    pool.pendingRestarts.delete(timer);
    fork(pool, worker.id);
  }, delay);
  pool.pendingRestarts.add(timer);
}

function stopOnSignals(pool) {
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      if (pool.stopping) return;
      pool.stopping = true;
      for (const timer of pool.pendingRestarts) clearTimeout(timer);
      console.log(`${signal}: stopping ${pool.live.size} worker processes`);
      if (pool.live.size === 0) return finish(pool);
      // The signal itself, not worker.kill() (which disconnects first): each worker's own handler
      // stops it cleanly. (A Ctrl-C in a terminal reaches the workers directly too; they act once.)
      for (const worker of pool.live) worker.process.kill(signal);
      setTimeout(() => {
        console.error(`Workers still running after ${pool.stopGraceMs / 1000} s: killing them`);
        for (const worker of pool.live) worker.process.kill("SIGKILL");
        process.exit(1);
      }, pool.stopGraceMs).unref();
    });
  }
}

function finish(pool) {
  console.log(
    pool.failedStop ? "All worker processes stopped (not all cleanly)" : "All worker processes stopped cleanly",
  );
  process.exit(pool.failedStop ? 1 : 0);
}
