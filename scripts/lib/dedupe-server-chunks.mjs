// One copy of each server chunk that a Turbopack production build writes several times.
//
// Next.js chunks every server entry (each route handler and page) on its own, as if each were
// deployed as a separate serverless function, so a chunk that a group of entries shares is written
// once per group: in this app one 0.87 MB chunk (the database layer, the request wrapper, zod
// schemas) was written 39 times, byte for byte the same but for its closing `sourceMappingURL`
// comment. One server process loads every entry, and Node.js keeps each copy's source in the heap
// (79 MB of large strings in a started server). After `next build`, this keeps the first copy of
// each set of identical chunks in a directory, points every reference to the others at it
// (`R.c("server/chunks/<name>")` in the entries, the file traces in `*.nft.json`), then removes the
// others. The Turbopack runtime loads a chunk once per path and installs a module id once, so the
// entries run the same modules as before, now from one file.
//
// References are rewritten before any file is removed, and a second run finds nothing to do.
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const SOURCE_MAP_COMMENT = /\n\/\/# sourceMappingURL=\S+\s*$/;

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Removes the duplicate chunks of the build in `distDir` (`.next` or NEXT_DIST_DIR); returns how many
 * files were removed and how many were rewritten.
 */
export function dedupeServerChunks(distDir) {
  const files = filesUnder(path.join(distDir, "server"));
  const sets = new Map();
  for (const file of files) {
    if (!file.endsWith(".js") || !file.split(path.sep).includes("chunks")) continue;
    const body = readFileSync(file, "utf8").replace(SOURCE_MAP_COMMENT, "");
    // Only within one directory: the references are relative to it.
    const key = `${path.dirname(file)}\0${createHash("sha256").update(body).digest("hex")}`;
    sets.set(key, [...(sets.get(key) ?? []), file]);
  }

  const replacements = new Map();
  const duplicates = [];
  for (const set of sets.values()) {
    if (set.length < 2) continue;
    const [kept, ...others] = set.sort();
    for (const other of others) replacements.set(path.basename(other), path.basename(kept));
    duplicates.push(...others);
  }
  if (!duplicates.length) return { removed: 0, rewritten: 0 };

  // A whole file name, between a path separator (or a quote) and its closing quote.
  const reference = new RegExp(`(?<=["/])(${[...replacements.keys()].map(escapeRegExp).join("|")})(?=")`, "g");
  const removed = new Set(duplicates);
  let rewritten = 0;
  for (const file of files) {
    if (removed.has(file) || !(file.endsWith(".js") || file.endsWith(".json"))) continue;
    const text = readFileSync(file, "utf8");
    const next = text.replace(reference, (name) => replacements.get(name));
    if (next === text) continue;
    writeFileSync(file, next);
    rewritten++;
  }
  assertNothingStillReferences(files, removed, replacements);
  for (const file of duplicates) {
    rmSync(file);
    rmSync(`${file}.map`, { force: true });
  }
  return { removed: duplicates.length, rewritten };
}

/**
 * Before anything is removed: no file of the build may still name a copy about to go. This is what the
 * rewrite relies on (chunks named by their whole file name in quotes, in the entries and the file traces);
 * should a later Turbopack name them another way, the build stops here, loudly, rather than leave a
 * server that fails to load a chunk at its first request.
 */
function assertNothingStillReferences(files, removed, replacements) {
  // A whole file name after a path separator or any quote, and before any quote.
  const names = [...replacements.keys()].map((name) => [
    name,
    new RegExp(`(?<=["'\`/\\\\])${escapeRegExp(name)}(?=["'\`])`),
  ]);
  for (const file of files) {
    if (removed.has(file) || file.endsWith(".map")) continue;
    const text = readFileSync(file, "utf8");
    const named = names.find(([, pattern]) => pattern.test(text))?.[0];
    if (named) {
      throw new Error(
        `dedupe-server-chunks: ${path.relative(process.cwd(), file)} still names ${named} after the rewrite: ` +
          "Turbopack's output no longer has the shape this script expects. Nothing was removed; " +
          "remove the step from the build, or teach the script the new shape.",
      );
    }
  }
}

/** dedupeServerChunks, then one line saying what it did (after `next build`, in npm start and npm run build). */
export function dedupeServerChunksAndSay(distDir) {
  const { removed, rewritten } = dedupeServerChunks(distDir);
  process.stderr.write(
    `Server chunks: ${removed} duplicate copies removed, ${rewritten} files pointed at the kept ones\n`,
  );
}

// `node scripts/lib/dedupe-server-chunks.mjs` (npm run build runs it after `next build`).
if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  dedupeServerChunksAndSay(process.env.NEXT_DIST_DIR || ".next");
}
