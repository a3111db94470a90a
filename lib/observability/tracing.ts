import { processGlobal, processSlot } from "@/lib/process-global";
import type { DatabaseSystem, TracingHooks } from "@/lib/observability/tracing-types";

// OpenTelemetry traces, on only when OTEL_EXPORTER_OTLP_ENDPOINT is set: a span per request (Next.js's own,
// named by the route template) with a span per database statement under it, sent over OTLP/HTTP.
// This module imports nothing of OpenTelemetry: the SDK lives in tracing-sdk.ts, which startTracing()
// loads only when the variable is set. Until then every function here costs one property check.

export type { DatabaseSystem } from "@/lib/observability/tracing-types";

/**
 * The switch, once per process (lib/process-global.ts): a production build holds more than one copy of
 * this module (start-up's and the routes'), and the copy that started tracing must turn every other on.
 * `hooks` stays undefined while tracing is off, so the check is one property read.
 */
const tracing = processGlobal<{ hooks?: TracingHooks }>("tracing", () => ({}));

const DEFAULT_SERVICE_NAME = "platform-compliance-service";

/** Whether spans are being made and sent. */
export const tracingEnabled = (): boolean => tracing.hooks !== undefined;

/**
 * The trace id of the span current where it is called (inside a request: the request's trace), for the
 * request's log lines; undefined when tracing is off (one property read) or no span is current.
 */
export function activeTraceId(): string | undefined {
  return tracing.hooks?.traceId();
}

/**
 * Runs one database statement (`run`), in a span named by its verb with `db.system` and `db.statement`
 * (the SQL text with its placeholders, never the values bound to them) when tracing is on. Off, it is
 * `run()` after one property read. `run` may answer a value (better-sqlite3) or a promise (pg, Prisma's
 * driver adapters): the span ends when the statement has.
 */
export function tracedStatement<T>(system: DatabaseSystem, sql: string, run: () => T): T {
  const hooks = tracing.hooks;
  return hooks ? hooks.statement(system, sql, run) : run();
}

/**
 * Starts tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set (the service name: OTEL_SERVICE_NAME, else
 * platform-compliance-service); unset, it loads nothing and answers false. Called once by
 * instrumentation.ts, after start-up has validated the environment and before the first request. The
 * exporter reads its own settings (the endpoint, OTEL_EXPORTER_OTLP_HEADERS...) from process.env. A stop
 * (lib/server-lifecycle.mjs) sends the last spans through the process slot "stop-tracing".
 */
export async function startTracing(environment: Record<string, string | undefined> = process.env): Promise<boolean> {
  if (tracing.hooks) return true;
  const endpoint = environment.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return false;
  // Loaded here, and only here: with the variable unset no OpenTelemetry module is ever read.
  const { startSdk } = await import("@/lib/observability/tracing-sdk");
  tracing.hooks = startSdk({ serviceName: environment.OTEL_SERVICE_NAME || DEFAULT_SERVICE_NAME });
  processSlot<() => Promise<void>>("stop-tracing").set(stopTracing);
  return true;
}

/** Sends what is still buffered and turns tracing off (a stop; tests). */
export async function stopTracing(): Promise<void> {
  const hooks = tracing.hooks;
  tracing.hooks = undefined;
  await hooks?.stop();
}
