import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createOwnerOnlyFileOnce, replaceOwnerOnlyFile } from "@/lib/db/owner-only";
import { currentSetupToken, setupTokenFile } from "@/lib/employees/setup";

const root = path.resolve(import.meta.dirname, "..", "..");
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const freshDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "pcs-owner-only-"));
  dirs.push(dir);
  return dir;
};

describe("createOwnerOnlyFileOnce", () => {
  it("creates the file with its content and mode 0600, and no temporary file stays behind", () => {
    const file = path.join(freshDir(), "secret");
    expect(createOwnerOnlyFileOnce(file, "first\n")).toBe(true);
    expect(readFileSync(file, "utf8")).toBe("first\n");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(file))).toEqual(["secret"]);
  });

  it("leaves a file that exists as it is and says so", () => {
    const file = path.join(freshDir(), "secret");
    createOwnerOnlyFileOnce(file, "first\n");
    expect(createOwnerOnlyFileOnce(file, "second\n")).toBe(false);
    expect(readFileSync(file, "utf8")).toBe("first\n");
    expect(readdirSync(path.dirname(file))).toEqual(["secret"]);
  });
});

describe("replaceOwnerOnlyFile", () => {
  it("replaces the content, mode 0600, no temporary file left", () => {
    const file = path.join(freshDir(), "secret");
    writeFileSync(file, "old\n", { mode: 0o644 });
    replaceOwnerOnlyFile(file, "new\n");
    expect(readFileSync(file, "utf8")).toBe("new\n");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(file))).toEqual(["secret"]);
  });
});

describe("currentSetupToken", () => {
  // An older version created the file empty and wrote it a moment later: a crash in between left it empty.
  it("replaces a setup-token file that holds no usable token", () => {
    writeFileSync(setupTokenFile(), "");
    const token = currentSetupToken();
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(setupTokenFile(), "utf8").trim()).toBe(token);
    expect(currentSetupToken()).toBe(token);
  });
});

type Child = { ready: Promise<void>; result: Promise<{ key: string; token: string }>; go(at: number): void };

/** lib/testing/generated-files-child.ts on `dataDir`, as a server process starting up there. */
function startChild(dataDir: string): Child {
  const child = spawn(path.join(root, "node_modules", ".bin", "tsx"), ["lib/testing/generated-files-child.ts"], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: `file:${path.join(dataDir, "unused.db")}`,
      TOTP_ENCRYPTION_KEY: "",
      SETUP_TOKEN: "",
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  let onReady!: () => void;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk;
    if (out.startsWith("ready\n")) onReady();
  });
  child.stderr.on("data", (chunk: Buffer) => (err += chunk));
  const result = new Promise<{ key: string; token: string }>((resolve, reject) => {
    child.on("exit", (code) => {
      const line = out.split("\n")[1];
      if (code === 0 && line) resolve(JSON.parse(line));
      else reject(new Error(`child exited with ${code}: ${err || out}`));
    });
  });
  // A child that fails while loading never says ready: let the result's error surface instead of waiting.
  result.catch(onReady);
  return { ready, result, go: (at) => child.stdin.write(`${at}\n`) };
}

describe("generated files on one data directory", () => {
  // Regression: the key and the token were created empty ("wx") and written a moment later, so a
  // second process starting at the same instant could read the empty file (the key: start-up
  // failed; the token: it wrote its own over the first one's, which had been printed already).
  it("several processes starting at once all end up with one encryption key and one setup token", async () => {
    const PROCESSES = 6;
    const ROUNDS = 3;
    for (let round = 0; round < ROUNDS; round++) {
      const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "pcs-race-")), "data");
      dirs.push(path.dirname(dataDir));
      const children = Array.from({ length: PROCESSES }, () => startChild(dataDir));
      await Promise.all(children.map((child) => child.ready));
      const at = Date.now() + 200;
      for (const child of children) child.go(at);
      const results = await Promise.all(children.map((child) => child.result));

      const key = readFileSync(path.join(dataDir, "totp-encryption.key"), "utf8").trim();
      const token = readFileSync(path.join(dataDir, "setup-token"), "utf8").trim();
      expect(Buffer.from(key, "base64")).toHaveLength(32);
      expect(results.map((result) => result.key)).toEqual(Array(PROCESSES).fill(key));
      expect(results.map((result) => result.token)).toEqual(Array(PROCESSES).fill(token));
      // Owner-only, and no temporary file left behind.
      expect(readdirSync(dataDir).sort()).toEqual(["setup-token", "totp-encryption.key"]);
      for (const name of readdirSync(dataDir)) expect(statSync(path.join(dataDir, name)).mode & 0o777).toBe(0o600);
    }
    // 18 child processes, each loading TypeScript through tsx: seconds each on a loaded machine
    // (it ran out of the 60 s default once at a load average of 30).
  }, 240_000);
});
