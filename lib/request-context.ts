import { AsyncLocalStorage } from "node:async_hooks";
import type { OpenTransaction } from "@/lib/db";
import type { ReadSnapshot } from "@/lib/db/raw-read";
import { processGlobal } from "@/lib/process-global";
import type { Scope } from "@/lib/tenancy";

/**
 * What a request carries through its awaits: its tenant scope (lib/tenancy.ts), the transaction it
 * runs in (lib/db.ts) and the snapshot its raw reads share (lib/db/raw-read.ts). One
 * AsyncLocalStorage for all three, once per process (lib/process-global.ts: a production build can
 * hold more than one copy of a module): every storage that exists costs each promise the process
 * makes a little, about 1 % of a key-authenticated GET per storage.
 */
type RequestContext = { readonly scope?: Scope; readonly transaction?: OpenTransaction; readonly reads?: ReadSnapshot };

const storage = processGlobal("request-context", () => new AsyncLocalStorage<RequestContext>());

/** The current context, if any. */
export const requestContext = (): RequestContext | undefined => storage.getStore();

/** Runs `work` with `change` in the context; the rest of the current context carries over. */
export function withinContext<T>(change: RequestContext, work: () => T): T {
  return storage.run({ ...storage.getStore(), ...change }, work);
}
