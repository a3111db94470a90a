/**
 * A value now, or a promise of it: what a hot-path function answers when it can answer at once (a
 * SQLite read, a cached row) and only later otherwise (PostgreSQL, a write). `await` takes either.
 * Every promise a request makes costs it the async hooks of each AsyncLocalStorage in the process
 * (Next.js runs several), so the key-authenticated path makes none it does not need.
 */
export type MaybePromise<T> = T | Promise<T>;

/**
 * `next` of the value: at once when it is there (no promise made), else once it settles. A thenable
 * that is no Promise (a Prisma query, which runs only when asked) is asked here, in the caller's context.
 */
export function andThen<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return isThenable(value) ? Promise.resolve(value).then(next) : next(value);
}

export const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
