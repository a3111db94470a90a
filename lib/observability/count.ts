import type { CountedMetric, DatabaseGauges, Metrics } from "@/lib/observability/metrics.mjs";

// The app's side of the metrics: server.mjs makes them (lib/observability/metrics.mjs) only when
// METRICS_PORT is set; until then, and in tests, counting is one property read.

const METRICS = Symbol.for("platform-compliance.metrics");
const metrics = (): Metrics | undefined => (globalThis as { [key: symbol]: Metrics | undefined })[METRICS];

/** One more of `name`, when metrics are on. */
export function countMetric(name: CountedMetric): void {
  metrics()?.counters[name].inc();
}

/** Where the gauges read from the database come from, when metrics are on (lib/startup.ts). */
export function provideDatabaseGauges(read: () => Promise<DatabaseGauges>): void {
  const on = metrics();
  if (on) on.databaseGauges = read;
}
