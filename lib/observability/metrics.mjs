// Prometheus metrics (prom-client), kept only when METRICS_PORT is set: server.mjs then creates them and
// serves them on a listener of their own (serveMetrics), never on the service's port. The app counts
// through `countMetric` (lib/observability/count.ts), a no-op while they are off. Labels are bounded:
// methods, route templates (route-templates.mjs) and status codes, never a raw path or an id.
import cluster from "node:cluster";
import { createServer } from "node:http";
import client from "prom-client";

const METRICS = Symbol.for("platform-compliance.metrics");

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The process's metrics, in prom-client's default registry (so node:cluster workers' metrics add up in
 * the primary's AggregatorRegistry). `databaseGauges` is set by the app at start: the webhook backlog and
 * the unsealed audit events, read from the database when Prometheus scrapes.
 */
export function createMetrics() {
  if (globalThis[METRICS]) return globalThis[METRICS];
  const register = client.register;
  client.collectDefaultMetrics({ register });
  // A node:cluster worker answers the primary's requests for its metrics once an AggregatorRegistry
  // exists in it (prom-client adds the listener then).
  if (cluster.isWorker) new client.AggregatorRegistry();
  const counters = {
    webhook_deliveries_failed_total: counter(
      "webhook_deliveries_failed_total",
      "Webhook delivery attempts that failed (each retry counts).",
    ),
    database_busy_total: counter("database_busy_total", "Requests answered 503 because the database was busy."),
    api_key_rate_limited_total: counter("api_key_rate_limited_total", "API-key requests answered 429 (rate limit)."),
  };
  const metrics = {
    requests: new client.Counter({
      name: "http_requests_total",
      help: "HTTP requests answered, by method, route template and status.",
      labelNames: ["method", "route", "status"],
    }),
    duration: new client.Histogram({
      name: "http_request_duration_seconds",
      help: "Time to answer an HTTP request, by method and route template.",
      labelNames: ["method", "route"],
      buckets: HTTP_BUCKETS,
    }),
    counters,
    databaseGauges: null,
  };
  databaseGauges(metrics);
  globalThis[METRICS] = metrics;
  return metrics;
}

function counter(name, help) {
  return new client.Counter({ name, help });
}

/** One request answered. */
export function observeRequest(metrics, method, route, status, seconds) {
  metrics.requests.inc({ method, route, status: String(status) });
  metrics.duration.observe({ method, route }, seconds);
}

/**
 * Gauges read from the database at scrape time through the app's `databaseGauges` (every instance reads
 * the same rows, so a cluster's primary keeps the largest value rather than the sum).
 */
function databaseGauges(metrics) {
  let reading = null;
  const read = () => {
    // One read serves every gauge of one scrape.
    reading ??= (metrics.databaseGauges?.() ?? Promise.resolve(null)).finally(() =>
      setTimeout(() => (reading = null), 1000),
    );
    return reading;
  };
  const gauge = (name, help, field) =>
    new client.Gauge({
      name,
      help,
      aggregator: "max",
      async collect() {
        const values = await read().catch(() => null);
        if (values) this.set(values[field]);
      },
    });
  gauge(
    "webhook_deliveries_pending",
    "Webhook deliveries waiting to be sent (pending, retries included).",
    "webhookPending",
  );
  gauge(
    "webhook_oldest_pending_age_seconds",
    "Age of the oldest webhook delivery still pending, in seconds (0 when none).",
    "webhookOldestPendingAgeSeconds",
  );
  gauge("audit_events_unsealed", "Audit events not yet sealed by a checkpoint.", "auditUnsealed");
  gauge(
    "audit_seal_lag_seconds",
    "Age of the oldest audit event not yet sealed, in seconds (0 when none).",
    "auditSealLagSeconds",
  );
}

/** GET /metrics on METRICS_HOST:METRICS_PORT (the cluster's primary asks its workers: `aggregate`). */
export function serveMetrics({ port, host, aggregate }) {
  const aggregator = aggregate ? new client.AggregatorRegistry() : null;
  const server = createServer(async (req, res) => {
    if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/metrics") {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found: GET /metrics\n");
      return;
    }
    try {
      const body = aggregator ? await aggregator.clusterMetrics() : await client.register.metrics();
      res.writeHead(200, { "Content-Type": client.register.contentType }).end(body);
    } catch (error) {
      res.writeHead(500, { "Content-Type": "text/plain" }).end(`Metrics could not be collected: ${error.message}\n`);
    }
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}
