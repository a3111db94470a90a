// `npm start`: builds the app when there is no build or the sources are newer than it, then runs
// server.mjs (which validates configuration and applies migrations before it listens).
// `--build-only` stops after the build (the benchmark uses it). On a Node.js outside package.json's `engines` it
// stops first, with one line saying so (lib/require-supported-node.mjs).
import "../lib/require-supported-node.mjs";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

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

/**
 * Production builds use webpack (`npm run build` says the same). Turbopack gives about 40 API routes each
 * its own byte-identical copy of one shared server chunk, and Next.js loads every route at start: the
 * server then held 132 to 140 MB of live heap after a key GET load and 405 to 420 MB RSS, against 67 to
 * 78 MB and 304 to 367 MB built with webpack, at the same CPU per request side by side (key GET 1.01
 * and 1.03, write 1.04 and 0.81, /healthz 1.03 of Turbopack's). `next dev` keeps Turbopack.
 */
const NEXT_BUILD_FLAGS = ["--webpack"];

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
  // How it builds (NEXT_BUILD_FLAGS): a build made otherwise is stale.
  "scripts/start.mjs",
]
  .map((name) => path.join(root, name))
  .filter(existsSync);
const stale = !existsSync(buildId) || Math.max(...sources.map(newestMtime)) > statSync(buildId).mtimeMs;
if (stale) {
  console.log("Building the app (first start, or sources changed)...");
  const build = spawnSync("npx", ["--no-install", "next", "build", ...NEXT_BUILD_FLAGS], {
    cwd: root,
    stdio: "inherit",
    env: process.env,
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
if (process.argv.includes("--build-only")) process.exit(0);

// In this process, so signals reach the server directly.
process.chdir(root);
await import("../server.mjs");
