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
/** Workers finish what they are doing within 15 s (server.mjs); past this the primary stops waiting. */
const STOP_GRACE_MS = 25_000;

/**
 * Forks the first worker alone: it runs the start-up work that must happen once (migrations, the
 * encryption key, printing the setup link) before the others start, and when it cannot start (a
 * refused setting, say) the primary exits with its code instead of forking more. Then the rest.
 * A worker that dies unexpectedly is replaced, with a growing delay when deaths come quickly.
 * SIGTERM or SIGINT goes to every worker, which finishes cleanly (server.mjs); the primary exits
 * once all have, with 0 when all stopped cleanly.
 * @param {{ workers: number, exec: string, origin: (port: number) => string }} options
 */
export function runPrimary({ workers: wanted, exec, origin }) {
  // Workers run server.mjs itself (not whatever script imported it, such as scripts/start.mjs),
  // with this process's Node options, environment and working directory.
  cluster.setupPrimary({ exec });
  const live = new Set();
  const deaths = [];
  const pendingRestarts = new Set();
  let ready = 0;
  let listening = false;
  let stopping = false;
  let failedStop = false;

  console.log(`Starting ${wanted} worker processes (WEB_CONCURRENCY=${wanted})`);
  fork();

  /** @param {number | undefined} replacing the id of the worker this one replaces */
  function fork(replacing) {
    const worker = cluster.fork();
    let isReady = false;
    live.add(worker);
    worker.on("listening", (address) => {
      if (isReady) return;
      isReady = true;
      ready += 1;
      console.log(
        `Worker ${worker.id} (pid ${worker.process.pid}) is ready${replacing ? `, replacing worker ${replacing}` : ""}`,
      );
      if (worker.id === 1) for (let i = 1; i < wanted; i += 1) fork();
      if (!listening && ready === wanted) {
        listening = true;
        console.log(`Listening on ${origin(address.port)} with ${wanted} worker processes`);
      }
    });
    worker.on("exit", (code, signal) => {
      live.delete(worker);
      const how = signal ? `signal ${signal}` : `exit code ${code}`;
      if (stopping) {
        if (code !== 0) failedStop = true;
        console.log(`Worker ${worker.id} (pid ${worker.process.pid}) stopped (${how})`);
        if (live.size === 0) finish();
        return;
      }
      if (worker.id === 1 && !isReady) {
        // The first worker could not start: the others would fail the same way.
        console.error(`Worker ${worker.id} stopped during start-up (${how}); not starting the others.`);
        process.exit(code || 1);
      }
      const now = Date.now();
      deaths.push(now);
      while (deaths.length && deaths[0] < now - RECENT_MS) deaths.shift();
      const delay = Math.min(MAX_RESTART_DELAY_MS, RESTART_DELAY_MS * 2 ** (deaths.length - 1));
      console.error(
        `Worker ${worker.id} (pid ${worker.process.pid}) died unexpectedly (${how}); starting a replacement in ${delay / 1000} s`,
      );
      const timer = setTimeout(() => {
        pendingRestarts.delete(timer);
        fork(worker.id);
      }, delay);
      pendingRestarts.add(timer);
    });
  }

  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      for (const timer of pendingRestarts) clearTimeout(timer);
      console.log(`${signal}: stopping ${live.size} worker processes`);
      if (live.size === 0) return finish();
      // The signal itself, not worker.kill() (which disconnects first): each worker's own handler
      // stops it cleanly. (A Ctrl-C in a terminal reaches the workers directly too; they act once.)
      for (const worker of live) worker.process.kill(signal);
      setTimeout(() => {
        console.error(`Workers still running after ${STOP_GRACE_MS / 1000} s: killing them`);
        for (const worker of live) worker.process.kill("SIGKILL");
        process.exit(1);
      }, STOP_GRACE_MS).unref();
    });
  }

  function finish() {
    console.log(failedStop ? "All worker processes stopped (not all cleanly)" : "All worker processes stopped cleanly");
    process.exit(failedStop ? 1 : 0);
  }
}
