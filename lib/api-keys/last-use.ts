import { db } from "@/lib/db/client";
import { writeKeysLastUsed, type KeyUse } from "@/lib/api-keys/store";
import { databaseProvider } from "@/lib/env";
import { processGlobal } from "@/lib/process-global";

export type { KeyUse };

/** The keys used since the last batched write of their last use (PostgreSQL); one copy per process. */
const touches = processGlobal("api-key-touches", () => ({
  pending: new Map<string, KeyUse>(),
  timer: undefined as NodeJS.Timeout | undefined,
}));
const TOUCH_FLUSH_MS = 5_000;

/** Longest User-Agent kept: enough for any real client's, not a place to store a payload. */
export const MAX_USER_AGENT_LENGTH = 256;

/** A User-Agent as lastUsedUserAgent keeps it: control characters dropped, trimmed, at most 256 characters; null when empty. */
export function cleanUserAgent(value: string | null): string | null {
  if (value === null) return null;
  const text = [...value.replace(/[\u0000-\u001f\u007f-\u009f]/g, "").trim()];
  return text.length === 0 ? null : text.slice(0, MAX_USER_AGENT_LENGTH).join("");
}

/**
 * Records that a key was used (when, from which address, with which User-Agent), unless it was
 * recorded within `everyMs` (the caller has read lastUsedAt already and asks only when it is older).
 * SQLite writes it at once: a local statement costs no round trip. PostgreSQL writes it off the
 * request's path, for every key used in the last few seconds at once (flushKeyUses), so a
 * key-authenticated read costs its two statements and no more (a round trip to a database across the
 * network costs more than the read itself).
 */
export async function recordKeyUse(id: string, use: KeyUse, everyMs: number): Promise<void> {
  if (databaseProvider() === "postgresql") {
    touches.pending.set(id, use);
    touches.timer ??= setTimeout(() => void flushKeyUses().catch(logFailure), TOUCH_FLUSH_MS).unref();
    return;
  }
  await db().apiKey.updateMany({
    where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(use.at - everyMs) } }] },
    data: { lastUsedAt: new Date(use.at), lastUsedIp: use.ip, lastUsedUserAgent: use.userAgent },
  });
}

const logFailure = (error: Error) => console.error(`Could not record when API keys were last used: ${error.message}`);

/** Writes the pending last uses in one statement, never moving one back (tests call it to see them at once; so does a clean stop). */
export async function flushKeyUses(): Promise<void> {
  clearTimeout(touches.timer);
  touches.timer = undefined;
  if (touches.pending.size === 0) return;
  const used = [...touches.pending];
  touches.pending.clear();
  await writeKeysLastUsed(used);
}
