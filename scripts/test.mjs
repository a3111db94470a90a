// `npm test`: type check, lint (`npm run lint`), unit and integration tests (vitest, in-process against throwaway SQLite
// files, then again against throwaway databases on the PostgreSQL server POSTGRESQL_TEST_URL names,
// default postgresql://postgres@127.0.0.1:5432/postgres; skipped, saying why, when none answers),
// the production build, then Playwright against the production server (`npm start`'s own server.mjs). The build is a step of its own so a slow machine's build is not charged to the
// Playwright web server's start-up timeout, and each step's time is reported at the end, with the tests that failed.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { postgresqlReachable } from "./lib/postgresql.mjs";
import { failureLines, playwrightFailures, vitestFailures } from "./lib/test-failures.mjs";

process.env.NEXT_TELEMETRY_DISABLED = "1";
const npx = (...command) => ["npx", ["--no-install", ...command]];
const node = (...args) => [process.execPath, args];
// The runners' JSON reports, read back for the summary: it names every failed test at the end, where a CI log's tail shows it.
const reports = mkdtempSync(path.join(tmpdir(), "pcs-test-reports-"));
const vitest = (name) => ({
  run: npx("vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${path.join(reports, name)}`),
  failures: () => vitestFailures(path.join(reports, name)),
});
const steps = [
  ["Type check", { run: npx("tsc", "--noEmit", "-p", ".") }],
  // ESLint, the import cycle check (dpdm) and prettier --check, as `npm run lint` runs them.
  ["Lint", { run: ["npm", ["run", "--silent", "lint"]] }],
  [
    "Schema and migrations agree",
    { run: node("--experimental-wasm-modules", "--no-warnings", "scripts/check-migrations.mjs") },
  ],
  ["Unit and integration tests (vitest, SQLite)", vitest("vitest-sqlite.json")],
  [
    "Unit and integration tests (vitest, PostgreSQL)",
    { ...vitest("vitest-postgresql.json"), env: { TEST_DATABASE: "postgresql" } },
  ],
  ["Production build", { run: node("scripts/start.mjs", "--build-only") }],
  [
    "End-to-end tests (Playwright, production build)",
    {
      run: npx("playwright", "test", "--reporter=list,json"),
      env: { PLAYWRIGHT_JSON_OUTPUT_FILE: path.join(reports, "playwright.json") },
      failures: () => playwrightFailures(path.join(reports, "playwright.json")),
    },
  ],
];

const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`.padStart(7);
const results = [];
// Without a server the PostgreSQL half is skipped, and says why (REQUIRE_POSTGRESQL=1, as .ci/run sets, makes it a failure).
const postgresql = await postgresqlReachable();
for (const [
  title,
  {
    run: [command, args],
    env: extraEnv,
    failures,
  },
] of steps) {
  console.log(`\n=== ${title} ===`);
  if (extraEnv?.TEST_DATABASE === "postgresql" && !postgresql.ok) {
    console.log(
      `Skipped: ${postgresql.reason}. Set POSTGRESQL_TEST_URL to a server where the tests may create databases.`,
    );
    results.push({
      title: `${title}: skipped, ${postgresql.reason}`,
      ok: process.env.REQUIRE_POSTGRESQL !== "1",
      ms: 0,
    });
    continue;
  }
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...extraEnv } });
  const ok = result.status === 0;
  results.push({ title, ok, ms: Date.now() - started, listed: ok || !failures ? [] : failureLines(failures()) });
  if (!ok) console.error(`\n${title}: FAILED (exit ${result.status ?? result.signal})`);
}
rmSync(reports, { recursive: true, force: true });

const failed = results.filter((result) => !result.ok).length;
console.log("\n=== Summary ===");
for (const { title, ok, ms, listed = [] } of results) {
  console.log(`${ok ? "ok    " : "FAILED"} ${seconds(ms)}  ${title}`);
  for (const line of listed) console.log(line);
}
console.log(
  `       ${seconds(results.reduce((sum, { ms }) => sum + ms, 0))}  in all: ${results.length - failed} passed, ${failed} failed`,
);
process.exit(failed ? 1 : 0);
