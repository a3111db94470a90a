// The failed tests of a vitest or Playwright run, read from their JSON reports, so `npm test`'s
// summary names them: a CI log keeps only its tail, and the runners print failures long before it.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const MAX_LISTED = 20;

/**
 * The first line of a failure message, without colour codes, clipped; with the line where the real
 * assertion of a failed fast-check property is: "Got ..." (fast-check's includeErrorInReport, set for
 * every test file in lib/testing/setup.ts) or "Caused by: ..." (its error's cause, as vitest prints it).
 */
export function firstLine(message) {
  const lines = String(message ?? "")
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split("\n")
    .map((text) => text.trim());
  const first = lines.find((text) => text !== "") ?? "";
  const cause = lines.find((text) => text.startsWith("Got ") || text.startsWith("Caused by:"));
  const line = cause ? `${first} ${cause}` : first;
  return line.length > 600 ? `${line.slice(0, 599)}…` : line;
}

/** A report as JSON, or null when the runner wrote none or stopped mid-write. */
function readReport(file) {
  try {
    return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : null;
  } catch {
    return null;
  }
}

/** vitest's JSON report (`--reporter=json --outputFile.json=...`): failed tests, and files that failed outside any test. */
export function vitestFailures(file) {
  const report = readReport(file);
  if (!report) return null;
  const failures = [];
  for (const result of report.testResults ?? []) {
    const where = path.relative(process.cwd(), result.name ?? "");
    const failed = (result.assertionResults ?? []).filter((test) => test.status === "failed");
    for (const test of failed) failures.push(`${where} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    if (result.status === "failed" && failed.length === 0)
      failures.push(`${where}: ${firstLine(result.message) || "failed outside its tests"}`);
  }
  return failures;
}

/** Playwright's JSON report (`--reporter=list,json`, PLAYWRIGHT_JSON_OUTPUT_FILE): tests that did not end as expected, and errors outside tests. */
export function playwrightFailures(file) {
  const report = readReport(file);
  if (!report) return null;
  const failures = [];
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== "unexpected") continue;
        const error = test.results?.findLast((result) => result.error)?.error;
        failures.push(
          `${spec.file}:${spec.line} > ${[...titles, spec.title].join(" > ")}: ${firstLine(error?.message)}`,
        );
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  for (const error of report.errors ?? []) failures.push(firstLine(error.message));
  return failures;
}

/** The lines the summary prints for one failed step: at most MAX_LISTED failures, then how many more. */
export function failureLines(failures) {
  if (failures === null)
    return ["    (no readable report: the runner stopped before writing one; see its output above)"];
  const listed = failures.slice(0, MAX_LISTED).map((failure) => `    ${failure}`);
  if (failures.length > MAX_LISTED) listed.push(`    … and ${failures.length - MAX_LISTED} more`);
  return listed;
}
