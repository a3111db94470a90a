import { text } from "@/lib/contract/text";

// Ids as the API hands them out (lib/ids/generate.ts makes them): a type prefix, "_", then lower-case base36.
// Client-safe (zod only), so forms and the API check an id the same way.

export type IdPrefix =
  | "acct"
  | "key"
  | "du"
  | "emp"
  | "txn"
  | "va"
  | "rcp"
  | "tr"
  | "ir"
  | "ire"
  | "note"
  | "doc"
  | "sub"
  | "ben"
  | "agr"
  | "ses"
  | "rc"
  | "pk"
  | "wch"
  | "aud"
  | "we"
  | "evt"
  | "ckp";

/** Whether `value` is shaped like an id of this type (the suffix at most 64 characters). */
export const idPattern = (prefix: IdPrefix) => new RegExp(`^${prefix}_[a-z0-9]{1,64}$`);

/** The schema of an id of this type, in a path, a query or a body; `message` names what was expected. */
export const idSchema = (prefix: IdPrefix, message?: string) => text().regex(idPattern(prefix), message);
