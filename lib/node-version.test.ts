import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SUPPORTED_NODE, unsupportedNodeMessage } from "@/lib/node-version.mjs";

const root = path.resolve(import.meta.dirname, "..");

/** Runs `script` under this Node with `process.version` faked to `version`, as an old Node would report it. */
function runAs(version: string, script: string, args: string[] = []) {
  const fake = `Object.defineProperty(process, "version", { value: ${JSON.stringify(version)} });`;
  return spawnSync(
    process.execPath,
    ["--import", `data:text/javascript,${encodeURIComponent(fake)}`, script, ...args],
    {
      cwd: root,
      encoding: "utf8",
      // Without the guard these would build or serve; the timeout turns that into a failure, not a hang.
      timeout: 30_000,
      env: { ...process.env, PORT: "0", NEXT_DIST_DIR: ".next-node-version-test" },
    },
  );
}

describe("the supported Node.js versions", () => {
  it("are package.json's engines.node, 22.12 and later", () => {
    const engines = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).engines.node;
    expect(SUPPORTED_NODE).toBe(engines);
    expect(engines).toBe(">=22.12");
  });

  it.each(["v22.12.0", "v22.22.1", "v24.0.0", "v24.21.0", "v26.1.0", "v24.0.0-rc.1"])("%s is supported", (version) => {
    expect(unsupportedNodeMessage(version)).toBeNull();
  });

  it("the Node running these tests is supported", () => {
    expect(unsupportedNodeMessage(process.version)).toBeNull();
  });

  it.each(["v20.20.2", "v22.11.0", "v18.20.8", "v21.7.3", "v16.20.2", "not a version"])(
    "%s is refused in one line naming it and the supported range",
    (version) => {
      const message = unsupportedNodeMessage(version);
      expect(message).toBe(
        `This service needs Node.js >=22.12, and this is Node.js ${version}: ` +
          "install a supported version (check with `node --version`) and start it again.",
      );
      expect(message).not.toContain("\n");
    },
  );
});

describe("an old Node.js", () => {
  it.each([
    ["npm start", "scripts/start.mjs", ["--build-only"]],
    ["npm run serve", "server.mjs", []],
  ])("%s stops at once with the one line and exit 1", (_, script, args) => {
    const run = runAs("v20.20.2", script, args);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`${unsupportedNodeMessage("v20.20.2")}\n`);
  });

  it("the guard lets a supported version through without a word", () => {
    const run = runAs("v24.21.0", "lib/require-supported-node.mjs");
    expect(run.status).toBe(0);
    expect(run.stdout + run.stderr).toBe("");
  });
});
