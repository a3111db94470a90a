// The production server: Next.js's request handler behind a plain Node HTTP server, for what only
// the raw request shows.
// - The TCP peer. Route handlers cannot see it, and Next.js passes a client's own X-Forwarded-For
//   through untouched, so an IP allowlist could be talked past with a header. Here the peer is
//   appended to X-Forwarded-For on every request, and lib/http/client-ip.ts reads from the end of that chain.
// - Repeated Authorization headers: Node keeps only the first in req.headers; req.rawHeaders has all.
// - Methods Next.js cannot handle (TRACE is a 500 with a stack trace there, CONNECT and unknown
//   tokens never reach it): the contract's 405 here.
// Host, repeated credentials and methods are checked by lib/http/edge.mjs, which proxy.dev.ts also uses
// for pages under `next dev`. The fixed security headers are set here on every response (next.config.js
// sets them under `next dev`), and pages get a CSP with a nonce of their own (proxy.dev.ts under `next dev`):
// a production build has no proxy, whose matching Next.js would otherwise run for every API request too.
// Answers are compressed here, for the requests that accept an encoding only (lib/http/compress.mjs).
// WEB_CONCURRENCY=N (N > 1) makes this process a node:cluster primary (lib/cluster-primary.mjs) that
// forks N workers running this same file, all serving one port; what they must share lives in the
// database. Unset or 1: this process serves alone.
// First: on an unsupported Node.js, one line and exit 1 before anything else loads.
import "./lib/require-supported-node.mjs";
import { randomFillSync } from "node:crypto";
import cluster from "node:cluster";
import { createServer, STATUS_CODES } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  ALLOWED_METHODS,
  CLIENT_REQUEST_ID,
  HSTS,
  SERVER_REQUEST_ID_HEADER,
  SERVER_REQUEST_IDS,
  REQUEST_PATH_HEADER,
  SECURITY_HEADERS,
  edgeRefusal,
  edgeSettings,
  isPageRequest,
  pageCsp,
  refusalBody,
  requestPathOf,
} from "./lib/http/edge.mjs";
import { compressWhenAccepted } from "./lib/http/compress.mjs";
import { parseWebConcurrency } from "./lib/web-concurrency.mjs";
import { flushLogs, installLogger, routeConsoleTo } from "./lib/observability/log.mjs";
import { createMetrics, serveMetrics } from "./lib/observability/metrics.mjs";
import { accessLog } from "./lib/observability/access-log.mjs";
import { loadRouteTemplates } from "./lib/observability/route-templates.mjs";
import { lifecycle, shutdownSettings, stopOnSignals } from "./lib/server-lifecycle.mjs";

// The log first (LOG_FORMAT, LOG_LEVEL): everything after, the console included, writes its lines.
let logger;
logger = await installLogger().catch((error) => failToStart(error.message));
routeConsoleTo(logger);
const shutdown = (() => {
  try {
    return shutdownSettings();
  } catch (error) {
    return failToStart(error.message);
  }
})();

const port = Number(process.env.PORT ?? 3000); // 0: any free port (tests)
const host = process.env.HOST || "::";
// A bad value runs one process, whose start-up (lib/env.ts) refuses it with a message naming it.
const workers = parseWebConcurrency(process.env.WEB_CONCURRENCY).workers ?? 1;
const primary = cluster.isPrimary && workers > 1;
/**
 * Responses name the process that served them only in servers a Playwright test started (it sets
 * TEST_WORKER_INDEX), so e2e/instances.spec.ts can tell the workers apart; never in production.
 */
const workerHeader = cluster.isWorker && Boolean(process.env.TEST_WORKER_INDEX);
/** Validated by lib/startup.ts before serve() reads them. */
let settings;
/** Random bytes for request ids and pages' nonces, drawn 4 KiB at a time (a system call per request cost 2 % of a trivial one). */
const randomPool = Buffer.alloc(4096);
let randomAt = randomPool.length;
function randomText(bytes, encoding) {
  if (randomAt + bytes > randomPool.length) {
    randomFillSync(randomPool);
    randomAt = 0;
  }
  randomAt += bytes;
  return randomPool.toString(encoding, randomAt - bytes, randomAt);
}

const SECURITY_HEADER_LIST = Object.entries(SECURITY_HEADERS);

/**
 * The address as printed in "Listening on ...": one a newcomer can open. A wildcard bind (`::`, the
 * default, or `0.0.0.0`) is reached at localhost; APP_ORIGIN, when set, is how others reach it.
 */
const origin = (actualPort) => {
  const wildcard = host === "::" || host === "0.0.0.0";
  const local = `http://${wildcard ? "localhost" : host.includes(":") ? `[${host}]` : host}:${actualPort}`;
  return process.env.APP_ORIGIN ? `${local}, served as ${process.env.APP_ORIGIN}` : local;
};

/** Why a listen failed, in words. */
function listenFailure(error) {
  const words = { EADDRINUSE: "the port is already in use", EACCES: "not allowed to use this port" }[error.code];
  return words ? `${words} (${error.code})` : error.message;
}

/** A start that cannot go on: one line naming the cause, and exit 1. */
function failToStart(message) {
  if (logger) logger.fatal({ exitCode: 1 }, message);
  else process.stderr.write(`${message}\n`);
  flushLogs();
  process.exit(1);
}

/** METRICS_PORT (unset: no metrics) and METRICS_HOST (127.0.0.1: scraped from this machine unless set). */
function metricsSettings() {
  const text = process.env.METRICS_PORT;
  if (text === undefined || text === "") return null;
  const metricsPort = Number(text);
  if (!Number.isInteger(metricsPort) || metricsPort < 0 || metricsPort > 65_535)
    failToStart(`METRICS_PORT must be a port number from 0 to 65535 (got ${JSON.stringify(text)})`);
  return { port: metricsPort, host: process.env.METRICS_HOST || "127.0.0.1" };
}

/** With METRICS_PORT set: the metrics (in every process) and, where `listen`, their listener. */
async function startMetrics(listen) {
  const settings = metricsSettings();
  if (!settings) return null;
  const metrics = primary ? null : createMetrics();
  if (listen) {
    const server = await serveMetrics({ ...settings, aggregate: primary }).catch((error) =>
      failToStart(
        `Cannot serve metrics on ${settings.host} port ${settings.port} (METRICS_PORT): ${listenFailure(error)}`,
      ),
    );
    settings.port = server.address().port; // METRICS_PORT=0: the port the system chose
    logger.info(
      { metricsHost: settings.host, metricsPort: settings.port },
      `Metrics on http://${settings.host}:${settings.port}/metrics`,
    );
  }
  return metrics;
}

if (primary) {
  // Next.js is never loaded here: the primary only forks, watches and stops the workers (and serves their metrics).
  await startMetrics(true);
  const { runPrimary } = await import("./lib/cluster-primary.mjs");
  runPrimary({
    workers,
    exec: fileURLToPath(import.meta.url),
    origin,
    stopGraceMs: shutdown.delayMs + shutdown.graceMs + 15_000,
  });
} else {
  await serve();
}

/** Next.js behind the checks above, on `port` (in a cluster worker, the port all workers share). */
async function serve() {
  globalThis[Symbol.for("platform-compliance.peer-in-xff")] = true;
  const metrics = await startMetrics(!cluster.isWorker);
  const handle = await startNext();
  settings = edgeSettings(process.env); // validated by startNext()
  // The app takes the request id this server hands it (SERVER_REQUEST_ID_HEADER) only while this flag says it is in front.
  globalThis[SERVER_REQUEST_IDS] = true;
  const track = accessLog({
    write: logger.writeAccessLine,
    metrics,
    routes: loadRouteTemplates(join(import.meta.dirname, "app")),
  });
  const server = createServer((req, res) => answer(req, res, handle, track));
  answerWhatNextCannotSee(server);
  server.keepAliveTimeout = 65_000;
  // A port already in use (or not ours to bind): one line and exit 1, not a process alive without listening.
  server.once("error", (error) => failToStart(`Cannot listen on ${host} port ${port}: ${listenFailure(error)}`));
  server.listen(port, host, () => {
    const { port: actual } = server.address();
    // In a cluster the primary hears of it (the worker's "listening" event) and speaks for all workers.
    if (!cluster.isWorker) logger.info({ port: actual }, `Listening on ${origin(actual)}`);
  });
  stopOnSignals(server, shutdown, logger);
}

/**
 * Loads Next.js and waits for the start-up work. instrumentation.ts runs lib/startup.ts (configuration,
 * migrations, the setup link, the webhook worker) in this process, but Next.js does not wait for it in
 * prepare(): listen only once it is done, so no request meets an unmigrated database and a refused
 * setting stops the process before it listens.
 */
async function startNext() {
  const { default: next } = await import("next");
  const app = next({ dev: false, dir: import.meta.dirname });
  const handle = app.getRequestHandler();
  const started = Symbol.for("platform-compliance.started");
  const startUpDone = new Promise((resolve, reject) => (globalThis[started] = { resolve, reject }));
  await app.prepare();
  const startUpTimeout = setTimeout(
    () => failToStart("Start-up did not finish within 5 minutes (instrumentation.ts never ran lib/startup.ts?)"),
    300_000,
  );
  try {
    await startUpDone;
  } catch (error) {
    failToStart(`Start-up failed: ${error instanceof Error ? error.message.split("\n")[0] : error}`);
  }
  clearTimeout(startUpTimeout);
  return handle;
}

/** One request: the peer, the request id and the fixed headers, the edge's checks, then Next.js. */
function answer(req, res, handle, track) {
  const given = req.headers["x-forwarded-for"];
  const chain = Array.isArray(given) ? given.join(", ") : given;
  const peer = req.socket.remoteAddress ?? "";
  req.headers["x-forwarded-for"] = chain ? `${chain}, ${peer}` : peer;
  // The request's id, for answers made here and handed to the app (over any client's header of that
  // name), whose answers, audit records and log lines name it too (lib/http/request-ids.ts). The client's
  // own X-Request-Id reaches the app as the client sent it, kept apart as `clientRequestId`.
  const requestId = `req_${randomText(12, "hex")}`;
  req.headers[SERVER_REQUEST_ID_HEADER] = requestId;
  const clientId = req.headers["x-request-id"];
  res.setHeader(
    "X-Request-Id",
    typeof clientId === "string" && CLIENT_REQUEST_ID.test(clientId) ? clientId : requestId,
  );
  // The fixed security headers on every response (pages replace the CSP, below). Set here rather than
  // by next.config.js's headers(), which matches a path pattern per request.
  for (const [name, value] of SECURITY_HEADER_LIST) res.setHeader(name, value);
  if (workerHeader) res.setHeader("X-Worker-Pid", String(process.pid));
  if (settings.cookieSecure) res.setHeader("Strict-Transport-Security", HSTS);
  const target = req.url ?? "/";
  const queryAt = target.indexOf("?");
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  const query = queryAt === -1 ? "" : target.slice(queryAt + 1);
  track(req, res, path, requestId);
  // Stopping: this answer is the connection's last.
  if (lifecycle.closing) res.setHeader("Connection", "close");
  if (refuseAtTheEdge(req, res, path, query, requestId)) return;
  if (isPageRequest(path, (name) => req.headers[name])) {
    // Next.js reads the nonce from the request's CSP and puts it on its own scripts and styles. Both
    // headers are set over whatever the client sent.
    const csp = pageCsp(randomText(16, "base64"));
    req.headers["content-security-policy"] = csp;
    res.setHeader("Content-Security-Policy", csp);
    // For the dashboard's layout: a signed-out visit goes to sign-in with this as `next`, checked
    // there like any `next` (lib/auth/next-path.ts).
    req.headers[REQUEST_PATH_HEADER] = requestPathOf(path, query);
  }
  compressWhenAccepted(req, res);
  handle(req, res);
}

/** The edge's refusal (lib/http/edge.mjs), answered here: true when the request went no further. */
function refuseAtTheEdge(req, res, path, query, requestId) {
  const refusal = edgeRefusal(
    {
      method: req.method ?? "",
      path,
      query,
      host: req.headers.host,
      forwardedHost: req.headers["x-forwarded-host"],
      authorizationCount: countHeader(req.rawHeaders, "authorization"),
      cookie: req.headers.cookie,
    },
    settings,
  );
  if (!refusal) return false;
  const body = refusalBody(refusal, requestId);
  res.writeHead(refusal.status, {
    ...SECURITY_HEADERS,
    ...refusal.headers,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
  });
  res.end(req.method === "HEAD" ? undefined : body);
  return true;
}

/** Requests that never become a ServerResponse: CONNECT, and what Node's parser refuses. */
function answerWhatNextCannotSee(server) {
  // CONNECT (a proxy tunnel request) never reaches the request handler; without this Node drops the connection.
  server.on("connect", (req, socket) => {
    socket.on("error", () => {});
    socket.end(methodNotAllowed(req.method ?? "CONNECT"));
  });

  // A method Node's parser does not know (FOO) is a parse error: the contract's 405 for that, and for
  // anything else what Node itself answers when no listener is set.
  server.on("clientError", (error, socket) => {
    if (!socket.writable || socket._httpMessage?.headersSent) return socket.destroy(error);
    if (error.code === "HPE_INVALID_METHOD") {
      socket.end(methodNotAllowed("given"));
      return;
    }
    const status =
      { HPE_HEADER_OVERFLOW: 431, HPE_CHUNK_EXTENSIONS_OVERFLOW: 413, ERR_HTTP_REQUEST_TIMEOUT: 408 }[error.code] ??
      400;
    socket.end(rawResponse(status, {}, undefined, `req_${randomText(12, "hex")}`));
  });
}

function countHeader(rawHeaders, name) {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2)
    if (rawHeaders[i].length === name.length && rawHeaders[i].toLowerCase() === name) count += 1;
  return count;
}

/** A complete response written straight to a socket (CONNECT and unparseable requests have no ServerResponse). */
function rawResponse(status, extra, body, requestId) {
  const headers = {
    "X-Request-Id": requestId,
    ...SECURITY_HEADERS,
    ...extra,
    Connection: "close",
  };
  if (settings.cookieSecure) headers["Strict-Transport-Security"] = HSTS;
  if (body !== undefined)
    Object.assign(headers, {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Length": Buffer.byteLength(body),
    });
  const lines = Object.entries(headers)
    .map(([key, value]) => `${key}: ${value}\r\n`)
    .join("");
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines}\r\n${body ?? ""}`;
}

function methodNotAllowed(method) {
  const refusal = edgeRefusal(
    { method, path: "", host: null, forwardedHost: null, authorizationCount: 0, cookie: null },
    { ...settings, appHosts: null },
  );
  const requestId = `req_${randomText(12, "hex")}`;
  return rawResponse(405, { Allow: ALLOWED_METHODS.join(", ") }, refusalBody(refusal, requestId), requestId);
}
