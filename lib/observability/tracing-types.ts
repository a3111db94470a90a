// The types shared by tracing.ts (always loaded, no OpenTelemetry) and tracing-sdk.ts (loaded when tracing is on).

export type DatabaseSystem = "sqlite" | "postgresql";

/** What the SDK side (tracing-sdk.ts) does once tracing has started. */
export type TracingHooks = {
  /** The current span's trace id, if a span is current. */
  traceId(): string | undefined;
  /** Runs one statement in a span of its own, when some span (a request's) is current. */
  statement<T>(system: DatabaseSystem, sql: string, run: () => T): T;
  /** Sends the spans still buffered and stops. */
  stop(): Promise<void>;
};
