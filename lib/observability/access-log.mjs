// One access line per request (and, with metrics on, its count and duration), written when the response
// is done: the request id, method, route template, status, duration, the caller's id (never a secret) and
// the trace id when tracing is on. The app names the caller and the trace through `requestNotes`, keyed by
// the request id server.mjs gave the request (lib/observability/request-notes.ts). Health probes are quiet.
import { performance } from "node:perf_hooks";
import { observeRequest } from "./metrics.mjs";
import { routeTemplateOf } from "./route-templates.mjs";

const NOTES = Symbol.for("platform-compliance.request-notes");
/** What the app tells of a request in flight, by its server id. */
const requestNotes = (globalThis[NOTES] ??= new Map());

const QUIET = new Set(["/healthz", "/readyz"]);
/** Methods as labels: any other token a client sends counts as `other`, so labels stay bounded. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** A function that tracks one request from here to its response's end. */
export function accessLog({ write, metrics, routes }) {
  return function track(req, res, path, requestId) {
    if (QUIET.has(path)) return;
    const started = performance.now();
    const note = { actor: null, traceId: undefined };
    requestNotes.set(requestId, note);
    res.once("close", () => {
      requestNotes.delete(requestId);
      const seconds = (performance.now() - started) / 1000;
      const method = METHODS.has(req.method) ? req.method : "other";
      const route = routeTemplateOf(routes, path);
      const status = res.writableFinished ? res.statusCode : 499;
      if (metrics) observeRequest(metrics, method, route, status, seconds);
      const fields = {
        requestId,
        method,
        route,
        status,
        durationMs: Math.round(seconds * 10_000) / 10,
        actor: note.actor,
      };
      if (note.traceId) fields.traceId = note.traceId;
      write(fields);
    });
  };
}
