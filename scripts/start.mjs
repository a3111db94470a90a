// `npm start`: builds the app when there is no build or the sources are newer than it, then runs
// server.mjs (which validates configuration and applies migrations before it listens).
// `--build-only` stops after the build (the benchmark uses it). On a Node.js outside package.json's `engines` it
// stops first, with one line saying so (lib/require-supported-node.mjs).
import "../lib/require-supported-node.mjs";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { dedupeServerChunksAndSay } from "./lib/dedupe-server-chunks.mjs";

const root = path.resolve(import.meta.dirname, "..");
process.env.NEXT_TELEMETRY_DISABLED = "1";
process.env.NODE_ENV = "production";

function newestMtime(entry) {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(entry)) {
    if (child === "node_modules" || child === "generated" || child.startsWith(".")) continue;
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

const buildId = path.join(root, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID");
const sources = [
  "app",
  "components",
  "lib",
  "instrumentation.ts",
  "instrumentation-client.ts",
  "proxy.dev.ts",
  "next.config.js",
  "package-lock.json",
]
  .map((name) => path.join(root, name))
  .filter(existsSync);
const stale = !existsSync(buildId) || Math.max(...sources.map(newestMtime)) > statSync(buildId).mtimeMs;
if (stale) {
  // stdout is the service's log (JSON lines in production): the build's own output goes to stderr.
  process.stderr.write("Building the app (first start, or sources changed)...\n");
  const build = spawnSync("npx", ["--no-install", "next", "build"], {
    cwd: root,
    stdio: ["ignore", process.stderr, process.stderr],
    env: process.env,
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
  dedupeServerChunksAndSay(path.join(root, process.env.NEXT_DIST_DIR || ".next"));
}
if (process.argv.includes("--build-only")) process.exit(0);

// In this process, so signals reach the server directly.
process.chdir(root);
await import("../server.mjs");
