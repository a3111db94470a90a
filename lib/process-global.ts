// Values held once per process on globalThis, under Symbol.for("platform-compliance.<name>"): a
// production build can hold more than one copy of a module (start-up's and the routes'), and they
// must share one database client, one tenant scope, one worker. server.mjs finds some by the same keys.

/** globalThis as a store of values of type T under symbol keys (none of its own properties is symbol-keyed). */
const slots = <T>(): { [key: symbol]: T | undefined } => globalThis;

const keyOf = (name: string) => Symbol.for(`platform-compliance.${name}`);

/** The process's one value called `name`, made by `create` the first time it is asked for. */
export function processGlobal<T>(name: string, create: () => T): T {
  return (slots<T>()[keyOf(name)] ??= create());
}

/** A slot of the process called `name`, empty until set (the webhook worker, which is started, not made on demand). */
export function processSlot<T>(name: string) {
  const key = keyOf(name);
  return {
    get: (): T | undefined => slots<T>()[key],
    set: (value: T) => void (slots<T>()[key] = value),
  };
}
