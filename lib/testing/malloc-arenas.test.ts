// npm start re-executes itself with MALLOC_ARENA_MAX set (scripts/lib/malloc-arenas.mjs): the same
// process, the same Node.js flags and arguments, the variable set; one the operator set is kept.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const dir = mkdtempSync(path.join(tmpdir(), "pcs-malloc-arenas-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const script = path.join(dir, "start.mjs");
writeFileSync(
  script,
  `import { execWithFewerMallocArenas } from ${JSON.stringify(path.resolve("scripts/lib/malloc-arenas.mjs"))};
execWithFewerMallocArenas();
console.log(JSON.stringify({ pid: process.pid, arenas: process.env.MALLOC_ARENA_MAX ?? null, execArgv: process.execArgv, argv: process.argv.slice(2) }));
`,
);

function run(env: NodeJS.ProcessEnv) {
  const child = spawnSync(process.execPath, ["--max-semi-space-size=8", script, "--build-only"], {
    env,
    encoding: "utf8",
  });
  expect(child.status, child.stderr).toBe(0);
  return { ...JSON.parse(child.stdout), childPid: child.pid };
}

const { MALLOC_ARENA_MAX: _unset, ...withoutArenas } = process.env;

describe("execWithFewerMallocArenas", () => {
  it("re-executes the same process with two arenas, keeping its Node.js flags and arguments", () => {
    const { pid, childPid, arenas, execArgv, argv } = run(withoutArenas);

    expect(arenas).toBe("2");
    expect(pid).toBe(childPid);
    expect(execArgv).toEqual(["--max-semi-space-size=8"]);
    expect(argv).toEqual(["--build-only"]);
  });

  it("leaves a MALLOC_ARENA_MAX the operator set alone", () => {
    expect(run({ ...withoutArenas, MALLOC_ARENA_MAX: "4" }).arenas).toBe("4");
  });
});
