import {
  context,
  isSpanContextValid,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
  type Tracer,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { defaultResource, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import type { DatabaseSystem, TracingHooks } from "@/lib/observability/tracing-types";
import { PublicSpans } from "@/lib/observability/tracing-spans";

// The OpenTelemetry SDK, set up by hand as Next.js's guide describes for a manual configuration: a tracer
// provider whose spans go out in batches over OTLP/HTTP (JSON) to OTEL_EXPORTER_OTLP_ENDPOINT (the exporter
// reads it, and the other standard OTEL_EXPORTER_OTLP_* settings, itself), the W3C trace-context propagator
// (a request arriving with `traceparent` continues its trace) and the async-hooks context manager. Next.js
// makes the request spans itself once a provider is registered. No instrumentation patches any module.
// Loaded by startTracing() (tracing.ts) only when tracing is on.

/** Registers the SDK for the process and answers what tracing.ts calls. */
export function startSdk({ serviceName }: { serviceName: string }): TracingHooks {
  const provider = new TracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ "service.name": serviceName })),
    spanProcessors: [new PublicSpans(new BatchSpanProcessor({ exporter: new OTLPTraceExporter() }))],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  const tracer = provider.getTracer(serviceName);
  return {
    traceId: currentTraceId,
    statement: (system, sql, run) => statementSpan(tracer, system, sql, run),
    stop: () => provider.shutdown(),
  };
}

function currentTraceId(): string | undefined {
  const spanContext = trace.getSpan(context.active())?.spanContext();
  return spanContext && isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}

/** A statement's verb as its span's name: SELECT, INSERT, WITH, COMMIT... */
const verbOf = (sql: string): string => /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? "db.query";

/**
 * Runs a statement in a span under the current one. Outside any span (the background jobs, start-up's
 * migrations) the statement runs untraced: each would otherwise be a trace of its own, every few seconds.
 */
function statementSpan<T>(tracer: Tracer, system: DatabaseSystem, sql: string, run: () => T): T {
  const parent = context.active();
  if (!trace.getSpan(parent)) return run();
  const span = tracer.startSpan(
    verbOf(sql),
    { kind: SpanKind.CLIENT, attributes: { "db.system": system, "db.statement": sql } },
    parent,
  );
  let result: T;
  try {
    result = run();
  } catch (error) {
    endFailed(span, error);
    throw error;
  }
  if (!(result instanceof Promise)) {
    span.end();
    return result;
  }
  return result.then(
    (value: unknown) => {
      span.end();
      return value;
    },
    (error: unknown) => {
      endFailed(span, error);
      throw error;
    },
  ) as T;
}

/**
 * Marks a failed statement: the error's code or class only. Its message is left out, since a driver's
 * message can quote the values a constraint refused.
 */
function endFailed(span: Span, error: unknown): void {
  const code = (error as { code?: unknown } | null)?.code;
  const type = typeof code === "string" ? code : error instanceof Error ? error.name : "Error";
  span.setAttribute("error.type", type);
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}
