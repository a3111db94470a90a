// WEB_CONCURRENCY, read the same way by server.mjs (before anything else loads, to decide how many
// worker processes to fork) and by lib/env.ts (which refuses a bad value at start-up).

/** More workers than this is a typo, not a machine: each worker is a whole Next.js server (about 150 MB). */
export const WEB_CONCURRENCY_MAX = 32;

/**
 * The number of worker processes WEB_CONCURRENCY asks for: unset or empty is 1 (one process, no
 * cluster); otherwise a whole number from 1 to WEB_CONCURRENCY_MAX, or an error message.
 * @param {string | undefined} value
 * @returns {{ workers: number } | { error: string }}
 */
export function parseWebConcurrency(value) {
  if (value === undefined || value === "") return { workers: 1 };
  const workers = /^[0-9]{1,3}$/.test(value) ? Number(value) : NaN;
  if (!(workers >= 1 && workers <= WEB_CONCURRENCY_MAX))
    return { error: `must be a whole number from 1 to ${WEB_CONCURRENCY_MAX} (worker processes)` };
  return { workers };
}
