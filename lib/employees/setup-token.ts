import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { createOwnerOnlyFileOnce, ensureOwnerOnlyDirectory, replaceOwnerOnlyFile } from "@/lib/db/owner-only";
import path from "node:path";
import { dataDirectory, env } from "@/lib/env";

/**
 * The token first-run setup needs: SETUP_TOKEN when set; otherwise one generated into the data
 * directory (`setup-token`, mode 0600) by the first process that asks, so every request of this
 * process, and of any other process on the same data directory, sees the same token. The file is
 * removed once setup is done.
 */
export function currentSetupToken(): string {
  const configured = env().SETUP_TOKEN;
  if (configured) return configured;
  const file = setupTokenFile();
  const stored = readToken(file);
  if (stored) return stored;
  ensureOwnerOnlyDirectory(path.dirname(file));
  const token = randomBytes(32).toString("base64url");
  // Complete or absent to every other process; if another one created it first, theirs is used.
  if (createOwnerOnlyFileOnce(file, token + "\n")) return token;
  const theirs = readToken(file);
  if (theirs) return theirs;
  // A file with no usable token in it (an older version's crash between create and write): replace it.
  replaceOwnerOnlyFile(file, token + "\n");
  return token;
}

/** Whether the token was generated here (and may be printed), rather than set by the operator. */
export function setupTokenIsGenerated(): boolean {
  return !env().SETUP_TOKEN;
}

/** Compares in constant time (both sides hashed first, so their lengths leak nothing either). */
export function setupTokenMatches(given: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  return timingSafeEqual(digest(given), digest(currentSetupToken()));
}

/** Setup is done: the generated token is deleted (SETUP_TOKEN stays, but setup answers 409 from now on). */
export function forgetSetupToken() {
  rmSync(setupTokenFile(), { force: true });
}

export function setupTokenFile(): string {
  return path.join(dataDirectory(), "setup-token");
}

function readToken(file: string): string | null {
  try {
    const token = readFileSync(file, "utf8").trim();
    return token.length >= 32 ? token : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * The setup page's address for the log: APP_ORIGIN when set, else http://localhost:<PORT> (with
 * PORT=0 the port is only known once the server listens, so the link says `<port>`).
 */
export function setupLink(token?: string): string {
  const { APP_ORIGIN, PORT } = env();
  const origin = APP_ORIGIN ? new URL(APP_ORIGIN).origin : `http://localhost:${PORT === 0 ? "<port>" : PORT}`;
  return token === undefined ? `${origin}/setup` : `${origin}/setup?token=${encodeURIComponent(token)}`;
}
