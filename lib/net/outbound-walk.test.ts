import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Every request the service sends to a URL a user supplied goes through the outbound gate
// (lib/net/outbound.ts). This walk reads every file of the running service and finds every way out of
// the process: the network modules of Node, HTTP and protocol clients, and the global fetch. Each file
// that holds one must be named below with why it is not a way around the gate; a new one fails here
// until its requests go through the gate (or it is added here for a reason a reviewer accepts).
//
// Behaviour checks beside this walk: webhook deliveries (lib/webhooks/worker.test.ts), the discovery
// test and a saved issuer (app/v1/settings/sso.test.ts), and a whole single sign-on, whose discovery,
// token and JWKS requests leave through the gate (app/v1/sso/callback/route.test.ts).

const root = path.resolve(import.meta.dirname, "../..");

/** Where the running service's code lives. Tests, test helpers, generated code and developer scripts run no service. */
const SERVICE_CODE = ["app", "lib", "components", "server.mjs", "instrumentation.ts", "proxy.dev.ts"];
const NOT_SERVICE_CODE = /(\.test\.tsx?$|^lib\/generated\/|^lib\/testing\/)/;

/** A file's ways out of the process: imports of network modules and clients, and calls of the global fetch. */
const WAYS_OUT: [string, RegExp][] = [
  [
    "a network module of Node",
    /\bfrom\s+["'](node:)?(http|https|http2|net|tls|dgram)["']|require\(["'](node:)?(http|https|http2|net|tls|dgram)["']\)/,
  ],
  [
    "an HTTP or protocol client",
    /\bfrom\s+["'](undici|openid-client|nodemailer|pg|redis|ioredis|axios|got|node-fetch|ky|ws)["']/,
  ],
  ["the global fetch", /(?<![.\w$])fetch\s*\(/],
  ["a browser connection", /\bnew\s+(WebSocket|EventSource|XMLHttpRequest)\b/],
];

/** Files allowed a way out, and why none of them sends a request to a URL a user supplied. */
const ALLOWED: Record<string, string> = {
  "lib/net/outbound.ts": "the gate itself",
  "lib/sso/issuer.ts":
    "openid-client: every Configuration it makes carries the gate's fetch (its customFetch), used for every request",
  "lib/sso/flow.ts":
    "openid-client's helpers over the Configuration lib/sso/issuer.ts made (random values, the code grant)",
  "lib/mail/mailer.ts": "SMTP to SMTP_URL, which the operator sets",
  "lib/db/postgresql.ts": "PostgreSQL at DATABASE_URL, which the operator sets",
  "lib/db/raw-read.ts": "PostgreSQL at DATABASE_URL, which the operator sets",
  "lib/backup/postgresql.ts": "PostgreSQL at DATABASE_URL, which the operator sets (npm run backup and restore)",
  "lib/auth/rate-limit-redis.ts": "Redis at REDIS_URL, which the operator sets",
  "server.mjs": "the service's own HTTP server: it listens and sends nothing out",
  "lib/observability/metrics.mjs":
    "the metrics listener on METRICS_HOST and METRICS_PORT: it listens and sends nothing out",
  "lib/client/api.ts": "the dashboard in the browser, calling this service's own origin",
  "lib/client/download-export.ts": "the dashboard in the browser, calling this service's own origin",
};

function serviceFiles(): string[] {
  const files: string[] = [];
  const walk = (relative: string) => {
    const absolute = path.join(root, relative);
    for (const entry of readdirSync(absolute, { withFileTypes: true })) {
      const child = path.posix.join(relative, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (/\.(ts|tsx|mjs|js)$/.test(entry.name)) files.push(child);
    }
  };
  for (const entry of SERVICE_CODE) {
    if (/\.\w+$/.test(entry)) files.push(entry);
    else walk(entry);
  }
  return files.filter((file) => !NOT_SERVICE_CODE.test(file)).sort();
}

/** What ways out `source` holds, comments aside (a comment that names fetch sends nothing). */
function waysOut(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  return WAYS_OUT.filter(([, pattern]) => pattern.test(code)).map(([name]) => name);
}

describe("the walk of outbound call sites", () => {
  const files = serviceFiles();

  it("finds the service's code, and in it the ways out it knows of", () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files).toEqual(expect.arrayContaining(Object.keys(ALLOWED)));
    expect(waysOut(readFileSync(path.join(root, "lib/net/outbound.ts"), "utf8"))).toContain("a network module of Node");
    // The patterns themselves: each catches what it is for, and not a method of the same name.
    expect(waysOut('import https from "node:https";')).toEqual(["a network module of Node"]);
    expect(waysOut('import * as client from "openid-client";')).toEqual(["an HTTP or protocol client"]);
    expect(waysOut("const answer = await fetch(url);")).toEqual(["the global fetch"]);
    expect(waysOut("void query.refetch(); router.prefetch(href); this.fetch(x);")).toEqual([]);
    expect(waysOut("// fetch(url) is not called here")).toEqual([]);
  });

  it("finds no way out but through the gate or the reasons listed", () => {
    const unexplained = files.flatMap((file) => {
      if (file in ALLOWED) return [];
      const found = waysOut(readFileSync(path.join(root, file), "utf8"));
      return found.length ? [`${file}: ${found.join(", ")}`] : [];
    });
    expect(unexplained, "send these requests through lib/net/outbound.ts").toEqual([]);
  });

  it("lists no file that has no way out any more", () => {
    const stale = Object.keys(ALLOWED).filter(
      (file) => waysOut(readFileSync(path.join(root, file), "utf8")).length === 0,
    );
    expect(stale).toEqual([]);
  });
});
