import type { Attributes, Context } from "@opentelemetry/api";
import type { ReadableSpan, Span, SpanProcessor } from "@opentelemetry/sdk-trace";

// What leaves the process of Next.js's own spans, as tracing-sdk.ts exports them: the request's span named
// by the route template as the API documents it (`GET /v1/api_keys/{key}`, where Next.js writes
// `GET /v1/api_keys/[key]`), and no query string anywhere (a reset link's or a sign-in callback's query
// carries one-time secrets). Next.js adds no header, cookie or body to its spans; our statement spans
// carry the SQL text only. Imported by tracing-sdk.ts alone: loaded only when tracing is on.

/** Next.js's attribute naming each of its spans' kind (`BaseServer.handleRequest` for a request's). */
const NEXT_SPAN_TYPE = "next.span_type";
/** Attributes that hold a URL or a request target, query string included as Next.js records them. */
const URL_ATTRIBUTES = ["http.target", "http.url", "url.full"];

/**
 * A Next.js route as the API documents it: `[key]` as `{key}`, a catch-all `[...path]` (or optional
 * `[[...path]]`) as `{path*}`, route groups `(dashboard)` left out, and no query string.
 */
export function templateOf(text: string): string {
  return withoutQuery(text)
    .replace(/\[\[?\.\.\.(\w+)\]\]?/g, "{$1*}")
    .replace(/\[(\w+)\]/g, "{$1}")
    .replace(/\/\([^/)]+\)(?=\/|$| )/g, "");
}

const withoutQuery = (text: string): string => text.replace(/\?\S*/, "");

/** The attributes of a Next.js span fit to leave the process: no query string, `http.route` as a template. */
function publicAttributes(attributes: Attributes): Attributes {
  const cleaned: Attributes = { ...attributes };
  for (const key of URL_ATTRIBUTES) {
    const value = cleaned[key];
    if (typeof value === "string") cleaned[key] = withoutQuery(value);
  }
  delete cleaned["url.query"];
  const route = cleaned["http.route"];
  if (typeof route === "string") cleaned["http.route"] = templateOf(route);
  return cleaned;
}

/**
 * A Next.js span as it is exported (its name by template, its attributes cleaned); any other span (our
 * statements') unchanged. A view rather than a change: an ended span is read-only for everyone else.
 */
export function publicSpan(span: ReadableSpan): ReadableSpan {
  if (span.attributes[NEXT_SPAN_TYPE] === undefined) return span;
  return {
    name: templateOf(span.name),
    attributes: publicAttributes(span.attributes),
    kind: span.kind,
    spanContext: () => span.spanContext(),
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    duration: span.duration,
    status: span.status,
    links: span.links,
    events: span.events,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

/** Hands `next` (the exporting processor) each ended span as publicSpan makes it. */
export class PublicSpans implements SpanProcessor {
  constructor(private readonly next: SpanProcessor) {}

  onStart(span: Span, parentContext: Context): void {
    this.next.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    this.next.onEnd(publicSpan(span));
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}
