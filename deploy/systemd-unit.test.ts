// deploy/platform-compliance.service as systemd reads it (`systemd-analyze verify`, which needs no running
// systemd), and the settings the service relies on: restarts, the stop signal and time, the memory flags.
// verify checks that ExecStart's program exists, so it runs on a copy whose node is this test's own and
// whose install directory is this checkout: the directives themselves are the file's, untouched.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { knownVariables, schemaVariables } from "@/lib/env-typos";

const UNIT = "platform-compliance.service";
const INSTALL_DIR = "/opt/platform-compliance-service";
const repo = path.resolve(import.meta.dirname, "..");
const unit = readFileSync(path.join(import.meta.dirname, UNIT), "utf8");
const envExample = readFileSync(path.join(import.meta.dirname, "env.example"), "utf8");
const scratch = mkdtempSync(path.join(tmpdir(), "pcs-systemd-unit-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs systemd-analyze; a machine without it fails the test, saying what to install. */
function systemdAnalyze(...args: string[]): SpawnSyncReturns<string> {
  const result = spawnSync("systemd-analyze", args, { encoding: "utf8", timeout: 30_000 });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") {
    throw new Error(
      "systemd-analyze is not on PATH: install systemd (Debian and Ubuntu: apt-get install systemd), which checks deploy/platform-compliance.service",
    );
  }
  if (result.error) throw result.error;
  return result;
}

/** Every `Key=value` of the unit, in order (a key may repeat, as Environment= does). */
function directives(text: string): [string, string][] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#") && !line.startsWith(";") && !line.startsWith("["))
    .map((line) => {
      const at = line.indexOf("=");
      return [line.slice(0, at).trim(), line.slice(at + 1).trim()];
    });
}
const settings = directives(unit);
const values = (key: string) => settings.filter(([name]) => name === key).map(([, value]) => value);
const only = (key: string) => {
  const found = values(key);
  expect(found, `${key}= once`).toHaveLength(1);
  return found[0]!;
};

/** The unit with ExecStart's program replaced by this Node.js and the install directory by this checkout, written to `name` in a scratch directory. */
function runnableCopy(text: string, name = UNIT): string {
  const file = path.join(scratch, name);
  const rewritten = text.replace(/^ExecStart=\S+/m, `ExecStart=${process.execPath}`).replaceAll(INSTALL_DIR, repo);
  writeFileSync(file, rewritten);
  return file;
}

/** What `systemd-analyze verify` says about `file` (its own lines: a machine's other units may warn too). */
function verify(file: string) {
  const result = systemdAnalyze("verify", file);
  const output = `${result.stdout}\n${result.stderr}`;
  const aboutUnit = output.split("\n").filter((line) => line.includes(path.basename(file)) || line.includes(file));
  return { status: result.status, aboutUnit, output };
}

/** A time span as systemd reads it (45s, 1min 30s, 2min), in seconds. */
function timespanSeconds(span: string): number {
  const result = systemdAnalyze("timespan", span);
  const micros = /(?:μs|us):\s*(\d+)/.exec(result.stdout); // "us" where the locale is not UTF-8
  expect(result.status, result.stderr).toBe(0);
  expect(micros, result.stdout).not.toBeNull();
  return Number(micros![1]) / 1e6;
}

describe("deploy/platform-compliance.service", () => {
  it("passes systemd-analyze verify without a warning about its own directives", () => {
    const { status, aboutUnit, output } = verify(runnableCopy(unit));
    expect(aboutUnit, output).toEqual([]);
    expect(status, output).toBe(0);
  });

  it("is checked for real: a misspelt directive or a missing program is reported", () => {
    const misspelt = verify(
      runnableCopy(unit.replace("RestrictRealtime=yes", "RestrictRealtim=yes"), "misspelt.service"),
    );
    expect(misspelt.aboutUnit.join("\n")).toMatch(/Unknown key .RestrictRealtim./);
    const missing = path.join(scratch, "missing-program.service");
    writeFileSync(
      missing,
      unit.replace(/^ExecStart=\S+/m, "ExecStart=/nonexistent/node").replaceAll(INSTALL_DIR, repo),
    );
    expect(verify(missing).status).not.toBe(0);
  });

  it("runs server.mjs from the install directory with npm start's memory flags", () => {
    expect(only("WorkingDirectory")).toBe(INSTALL_DIR);
    const [program, ...args] = only("ExecStart").split(/\s+/);
    expect(program).toMatch(/^\/\S+\/node$/);
    expect(args).toEqual(["--max-old-space-size=256", "--max-semi-space-size=8", `${INSTALL_DIR}/server.mjs`]);
    const npmStart = JSON.parse(readFileSync(path.join(repo, "package.json"), "utf8")).scripts.start as string;
    for (const flag of args.slice(0, 2)) expect(npmStart).toContain(flag);
  });

  it("restarts on failure, stops with SIGTERM, and waits longer than the server's drain", () => {
    expect(only("Restart")).toBe("on-failure");
    expect(timespanSeconds(only("RestartSec"))).toBeGreaterThan(0);
    expect(only("KillSignal")).toBe("SIGTERM");
    // SHUTDOWN_DELAY_MS (default 0) + SHUTDOWN_GRACE_MS (default 30 s)
    expect(timespanSeconds(only("TimeoutStopSec"))).toBeGreaterThan(30);
  });

  it("sets the production environment, and only variables the service knows", () => {
    const environment = Object.fromEntries(
      values("Environment").map((value) => value.split("=", 2) as [string, string]),
    );
    expect(environment).toMatchObject({
      NODE_ENV: "production",
      MALLOC_ARENA_MAX: "2",
      DATABASE_URL: "file:/var/lib/platform-compliance-service/app.db",
    });
    for (const name of Object.keys(environment)) expect(knownVariables()).toContain(name);
    expect(only("EnvironmentFile")).toBe("/etc/platform-compliance-service/env");
  });

  it("runs as its own user, writing only to its state directory", () => {
    expect(only("User")).not.toBe("root");
    expect(only("StateDirectory")).toBe("platform-compliance-service");
    expect(values("ReadWritePaths")).toEqual(["/var/lib/platform-compliance-service"]);
    expect(only("UMask")).toBe("0077");
  });

  it("has the hardening options, and leaves V8's JIT its writable code pages", () => {
    expect(Object.fromEntries(settings)).toMatchObject({
      NoNewPrivileges: "yes",
      ProtectSystem: "strict",
      ProtectHome: "yes",
      PrivateTmp: "yes",
      PrivateDevices: "yes",
      ProtectKernelTunables: "yes",
      ProtectKernelModules: "yes",
      ProtectKernelLogs: "yes",
      ProtectControlGroups: "yes",
      RestrictAddressFamilies: "AF_INET AF_INET6 AF_UNIX",
      RestrictNamespaces: "yes",
      LockPersonality: "yes",
      RestrictRealtime: "yes",
      RestrictSUIDSGID: "yes",
      SystemCallArchitectures: "native",
      CapabilityBoundingSet: "",
    });
    expect(values("MemoryDenyWriteExecute")).toEqual([]);
  });
});

describe("deploy/env.example", () => {
  const named = [...envExample.matchAll(/^#?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!);

  it("names only variables the service knows", () => {
    for (const name of named) expect(knownVariables(), name).toContain(name);
  });

  it("lists every setting of lib/env.ts but the test suite's own", () => {
    const testOnly = ["PASSWORD_HASH_COST", "SLA_SWEEP_INTERVAL_MS", "AUDIT_SEAL_INTERVAL_MS"];
    for (const name of schemaVariables().filter((variable) => !testOnly.includes(variable)))
      expect(named, name).toContain(name);
  });
});
