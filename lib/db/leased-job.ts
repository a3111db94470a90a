import { releaseLease } from "@/lib/db/lease";
import { processSlot } from "@/lib/process-global";

// A background job that runs in the service process, a pass every intervalMs, while one process at a
// time holds its WorkerLease (lib/db/lease.ts): the SLA sweep and the audit sealer. Each pass takes or
// renews the lease itself; stop() finishes the pass in progress and gives the lease up, so another
// process takes over at its next look instead of after the lease ran out.

export type LeasedJob = {
  /** Passes until stop(), every intervalMs. */
  start(): void;
  /** Finishes the pass in progress, then gives up the lease. */
  stop(): Promise<void>;
  /** Runs a pass now instead of at the end of the current wait (tests; a burst of work). */
  wake(): void;
  readonly owner: string;
};

export function createLeasedJob({
  lease,
  owner,
  intervalMs,
  pass,
  log,
}: {
  lease: string;
  owner: string;
  intervalMs: number;
  pass: () => Promise<unknown>;
  log: (message: string) => void;
}): LeasedJob {
  let stopping = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      wake = done;
    });
  return {
    owner,
    start() {
      if (loop) return;
      stopping = false;
      loop = (async () => {
        while (!stopping) {
          try {
            await pass();
          } catch (error) {
            log(`pass failed: ${(error as Error).message}`);
          }
          if (!stopping) await sleep(intervalMs);
        }
      })();
    },
    wake: () => wake?.(),
    async stop() {
      stopping = true;
      wake?.();
      await loop;
      loop = undefined;
      await releaseLease({ name: lease, owner }).catch(() => undefined);
    },
  };
}

/**
 * Starts the process's job called `name` (once: a second call answers the running one), kept in a
 * process slot under that name, where server.mjs finds it to stop it on SIGTERM.
 */
export function startLeasedJobOnce(name: string, create: () => LeasedJob): LeasedJob {
  const running = processSlot<LeasedJob>(name);
  const started = running.get();
  if (started) return started;
  const job = create();
  running.set(job);
  job.start();
  return job;
}
