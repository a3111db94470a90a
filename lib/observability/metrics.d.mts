// Types for metrics.mjs, as the app sees them (through the process global, lib/observability/count.ts).
export type DatabaseGauges = {
  webhookPending: number;
  webhookOldestPendingAgeSeconds: number;
  auditUnsealed: number;
  auditSealLagSeconds: number;
};
export type CountedMetric = "webhook_deliveries_failed_total" | "database_busy_total" | "api_key_rate_limited_total";
export type Metrics = {
  counters: Record<CountedMetric, { inc(): void }>;
  databaseGauges: (() => Promise<DatabaseGauges>) | null;
};
