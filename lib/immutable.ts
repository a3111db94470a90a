/**
 * Results that may be handed out again unchanged: frozen all the way down and registered, so the
 * route wrapper keeps their checked JSON (lib/http/pipeline/present.ts) for as long as the same object comes
 * back. The SQLite read cache (lib/db/raw-read.ts) returns the same frozen rows while the database
 * is unchanged, so a result presented from them once (the API key list) is the same result until then.
 */
const registered = new WeakSet<object>();

/** Freezes `value` deeply (plain objects and arrays of JSON values; a Date or binary data is refused) and registers it. */
export function immutable<T extends object>(value: T): T {
  deepFreeze(value);
  registered.add(value);
  return value;
}

/** Whether `value` went through immutable() (a plain boolean: a value that did not is still an object). */
export const isImmutable = (value: unknown): boolean =>
  typeof value === "object" && value !== null && registered.has(value);

function deepFreeze(value: unknown) {
  if (typeof value !== "object" || value === null) return;
  if (value instanceof Date) throw new Error("immutable(): a Date can still be changed; give its ISO text instead");
  if (ArrayBuffer.isView(value)) throw new Error("immutable(): binary data cannot be frozen; give it as text");
  for (const item of Object.values(value)) deepFreeze(item);
  Object.freeze(value);
}
