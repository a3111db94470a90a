// `npm test`'s summary names the failed tests (scripts/lib/test-failures.mjs), read from the runners'
// JSON reports. The reports here are cut down from real ones of vitest 4 and Playwright 1.65.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { failureLines, firstLine, playwrightFailures, vitestFailures } from "@/scripts/lib/test-failures.mjs";

const dir = mkdtempSync(path.join(tmpdir(), "pcs-test-failures-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const report = (name: string, content: unknown) => {
  const file = path.join(dir, name);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
};

describe("vitestFailures", () => {
  it("names each failed test with its file and first message line, and a file that failed outside its tests", () => {
    const file = report("vitest.json", {
      success: false,
      testResults: [
        {
          assertionResults: [],
          status: "failed",
          message: "Cannot find module './does-not-exist' imported from /work/main/lib/zz-broken.test.ts",
          name: path.join(process.cwd(), "lib/zz-broken.test.ts"),
        },
        {
          assertionResults: [
            {
              ancestorTitles: ["outer"],
              fullName: "outer fails",
              status: "failed",
              title: "fails",
              failureMessages: [
                "AssertionError: one is two: expected 1 to be 2 // Object.is equality\n    at /work/main/lib/zz-fail.test.ts:3:47",
              ],
            },
            {
              ancestorTitles: ["outer"],
              fullName: "outer passes",
              status: "passed",
              title: "passes",
              failureMessages: [],
            },
          ],
          status: "failed",
          message: "",
          name: path.join(process.cwd(), "lib/zz-fail.test.ts"),
        },
        {
          assertionResults: [{ fullName: "fine", status: "passed", failureMessages: [] }],
          status: "passed",
          message: "",
          name: path.join(process.cwd(), "lib/ok.test.ts"),
        },
      ],
    });
    expect(vitestFailures(file)).toEqual([
      "lib/zz-broken.test.ts: Cannot find module './does-not-exist' imported from /work/main/lib/zz-broken.test.ts",
      "lib/zz-fail.test.ts > outer fails: AssertionError: one is two: expected 1 to be 2 // Object.is equality",
    ]);
  });

  it("no report, or half of one, is null: the summary then points at the output above", () => {
    expect(vitestFailures(path.join(dir, "missing.json"))).toBeNull();
    expect(vitestFailures(report("cut.json", '{"testResults": [{"assertionRes'))).toBeNull();
    expect(failureLines(null)).toEqual([expect.stringContaining("see its output above")]);
  });
});

describe("playwrightFailures", () => {
  it("names each test that did not end as expected, with its file, line, describe titles and error", () => {
    const failedResult = {
      status: "failed",
      error: {
        message: "Error: one is two\n\n\u001b[2mexpect(\u001b[22m\u001b[31mreceived\u001b[39m\u001b[2m).\u001b[22mtoBe",
      },
    };
    const file = report("playwright.json", {
      suites: [
        {
          title: "a.spec.ts",
          file: "a.spec.ts",
          line: 0,
          specs: [
            {
              title: "top level",
              file: "a.spec.ts",
              line: 9,
              tests: [{ status: "flaky", results: [failedResult, { status: "passed" }] }],
            },
          ],
          suites: [
            {
              title: "group",
              file: "a.spec.ts",
              line: 2,
              specs: [
                {
                  title: "fails",
                  file: "a.spec.ts",
                  line: 3,
                  tests: [{ status: "unexpected", results: [{ status: "passed" }, failedResult] }],
                },
                {
                  title: "passes",
                  file: "a.spec.ts",
                  line: 4,
                  tests: [{ status: "expected", results: [{ status: "passed" }] }],
                },
                { title: "skipped", file: "a.spec.ts", line: 5, tests: [{ status: "skipped", results: [] }] },
              ],
            },
          ],
        },
      ],
      errors: [{ message: "Error: Timed out waiting 240000ms from config.webServer." }],
    });
    expect(playwrightFailures(file)).toEqual([
      "a.spec.ts:3 > group > fails: Error: one is two",
      "Error: Timed out waiting 240000ms from config.webServer.",
    ]);
  });
});

describe("the summary's lines", () => {
  it("a failed fast-check property shows the assertion that failed, from its Caused by line", () => {
    const message = [
      "Error: Property failed after 1 tests",
      '{ seed: 2105404708, path: "0:0", endOnFailure: true }',
      "Caused by: AssertionError: GET /v1/sessions/current with a key in query (?__proto__=) answered 401: expected 401 to be 422",
    ].join("\n");
    expect(firstLine(message)).toBe(
      "Error: Property failed after 1 tests Caused by: AssertionError: GET /v1/sessions/current with a key in query (?__proto__=) answered 401: expected 401 to be 422",
    );
    expect(firstLine("x".repeat(700))).toHaveLength(600);
  });

  it("a property failing under the suite's fast-check settings names its assertion in the summary's line", () => {
    let message = "";
    try {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 10 }), (n) => {
          expect(n, "the drawn number").toBeLessThan(0);
        }),
      );
    } catch (error) {
      message = String(error);
    }
    expect(firstLine(message)).toMatch(
      /^Error: Property failed after 1 tests Got AssertionError: the drawn number: expected 0 to be less than 0$/,
    );
  });

  it("lists at most twenty failures, then how many more", () => {
    const failures = Array.from({ length: 63 }, (_, i) => `test ${i}`);
    const lines = failureLines(failures);
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe("    test 0");
    expect(lines[20]).toBe("    … and 43 more");
    expect(failureLines(["only"])).toEqual(["    only"]);
  });
});
