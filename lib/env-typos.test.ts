import { describe, expect, it } from "vitest";
import { knownVariables, likelyTypos, OTHER_VARIABLES, typoWarning } from "@/lib/env-typos";

const known = knownVariables();

/** What a login shell, npm and systemd put in a process's environment: none of it is ours. */
const shellEnvironment: Record<string, string> = {
  PATH: "/usr/local/bin:/usr/bin:/bin",
  HOME: "/root",
  PWD: "/opt/platform-compliance-service",
  OLDPWD: "/root",
  SHELL: "/bin/bash",
  USER: "root",
  LOGNAME: "root",
  LANG: "C.UTF-8",
  LC_ALL: "C.UTF-8",
  TERM: "xterm-256color",
  HOSTNAME: "app-1",
  SHLVL: "1",
  _: "/usr/bin/node",
  TZ: "UTC",
  TMPDIR: "/tmp",
  EDITOR: "vi",
  MAIL: "/var/mail/root",
  COLORTERM: "truecolor",
  SSH_CONNECTION: "10.0.0.1 52000 10.0.0.2 22",
  XDG_RUNTIME_DIR: "/run/user/0",
  NODE: "/usr/bin/node",
  INIT_CWD: "/opt/platform-compliance-service",
  COLOR: "1",
  npm_command: "start",
  npm_config_cache: "/root/.npm",
  npm_config_user_agent: "npm/11.6.0 node/v24.21.0 linux x64",
  npm_execpath: "/usr/lib/node_modules/npm/bin/npm-cli.js",
  npm_lifecycle_event: "start",
  npm_lifecycle_script: "node server.mjs",
  npm_node_execpath: "/usr/bin/node",
  npm_package_json: "/opt/platform-compliance-service/package.json",
  npm_package_name: "platform-compliance-service",
  npm_package_version: "0.1.0",
  // systemd's own, for a service with StateDirectory=
  INVOCATION_ID: "0123456789abcdef",
  JOURNAL_STREAM: "8:12345",
  STATE_DIRECTORY: "/var/lib/platform-compliance-service",
  SYSTEMD_EXEC_PID: "1234",
  // Kubernetes' service links
  KUBERNETES_SERVICE_HOST: "10.96.0.1",
  KUBERNETES_SERVICE_PORT: "443",
  KUBERNETES_PORT: "tcp://10.96.0.1:443",
  REDIS_PORT: "tcp://10.96.0.2:6379",
  REDIS_SERVICE_HOST: "10.96.0.2",
  // the test runners' own
  VITEST_POOL_ID: "1",
  VITEST_WORKER_ID: "1",
  TEST: "true",
  MODE: "test",
};

describe("likelyTypos", () => {
  it("names a variable one edit from a known one, with the name it probably meant", () => {
    expect(likelyTypos({ APP_ORGIN: "https://compliance.example.com" }, known)).toEqual([
      { name: "APP_ORGIN", suggestion: "APP_ORIGIN" },
    ]);
  });

  it.each([
    ["APP_ORGIN", "APP_ORIGIN"], // a letter left out
    ["DATABASE_URLL", "DATABASE_URL"], // one too many
    ["DATABSE_URL", "DATABASE_URL"],
    ["SMTP_URI", "SMTP_URL"], // one changed
    ["MAIL_FORM", null], // two letters swapped is two edits: not reported
    ["SETUP_TOKN", "SETUP_TOKEN"],
    ["COOKIE_SECUR", "COOKIE_SECURE"],
    ["TRUST_PROXIES", null],
    ["WEB_CONCURENCY", "WEB_CONCURRENCY"],
    ["SHUTDOWN_GRACE_M", "SHUTDOWN_GRACE_MS"], // read by server.mjs, not the schema
    ["Port", null], // case-sensitive: three edits from PORT
    ["POR", "PORT"],
  ])("%s -> %s", (name, suggestion) => {
    expect(likelyTypos({ [name]: "x" }, known)).toEqual(suggestion === null ? [] : [{ name, suggestion }]);
  });

  it("skips names that are known, whatever their values", () => {
    const environment = Object.fromEntries(known.map((name) => [name, "x"]));
    expect(likelyTypos(environment, known)).toEqual([]);
  });

  it("finds nothing in a typical shell, npm, systemd and Kubernetes environment", () => {
    expect(likelyTypos(shellEnvironment, known)).toEqual([]);
  });

  it("never reads or returns a value", () => {
    const environment = { APP_ORGIN: "s3cret-value", DATABSE_URL: undefined };
    const typos = likelyTypos(environment, known);
    expect(typos).toEqual([
      { name: "APP_ORGIN", suggestion: "APP_ORIGIN" },
      { name: "DATABSE_URL", suggestion: "DATABASE_URL" },
    ]);
    expect(JSON.stringify(typos)).not.toContain("s3cret");
    expect(typos.map(typoWarning).join("\n")).not.toContain("s3cret");
  });

  it("reports several typos sorted by name", () => {
    expect(likelyTypos({ SMTP_ULR: "x", REDIS_URI: "x", APP_ORIGN: "x" }, known).map((typo) => typo.name)).toEqual([
      "APP_ORIGN",
      "REDIS_URI",
    ]);
  });
});

describe("typoWarning", () => {
  it("is one line naming both variables", () => {
    expect(typoWarning({ name: "APP_ORGIN", suggestion: "APP_ORIGIN" })).toBe(
      "Unknown variable APP_ORGIN: did you mean APP_ORIGIN?",
    );
  });

  it("escapes a control character in the name, so the warning stays one line", () => {
    const [typo] = likelyTypos({ "PORT\n": "x" }, known);
    expect(typo).toEqual({ name: "PORT\n", suggestion: "PORT" });
    expect(typoWarning(typo!)).toBe("Unknown variable PORT\\u000a: did you mean PORT?");
  });
});

describe("knownVariables", () => {
  it("holds the schema's variables and those read elsewhere, once each", () => {
    for (const name of ["APP_ORIGIN", "DATABASE_URL", "SECRET_SCANNING_PUBLIC_KEYS", "PORT", "HOST", "NODE_ENV"])
      expect(known).toContain(name);
    for (const name of OTHER_VARIABLES) expect(known).toContain(name);
    expect(new Set(known).size).toBe(known.length);
  });
});
