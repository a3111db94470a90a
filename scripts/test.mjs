// `npm test`: type check, unit and integration tests (vitest, in-process against throwaway SQLite
// files), then Playwright against the production server (`npm start`'s own server.mjs).
import { spawnSync } from "node:child_process";

process.env.NEXT_TELEMETRY_DISABLED = "1";
const steps = [
  ["Type check", ["tsc", "--noEmit", "-p", "."]],
  ["Schema and migrations agree", null],
  ["Unit and integration tests", ["vitest", "run"]],
  ["End-to-end tests (Playwright, production build)", ["playwright", "test"]],
];

let failed = 0;
for (const [title, command] of steps) {
  console.log(`\n=== ${title} ===`);
  const result = command
    ? spawnSync("npx", ["--no-install", ...command], { stdio: "inherit", env: process.env })
    : spawnSync(process.execPath, ["--experimental-wasm-modules", "--no-warnings", "scripts/check-migrations.mjs"], { stdio: "inherit" });
  if (result.status !== 0) {
    failed += 1;
    console.error(`\n${title}: FAILED (exit ${result.status ?? result.signal})`);
  }
}
console.log(`\n${steps.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
