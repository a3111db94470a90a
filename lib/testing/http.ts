import { generateSync } from "otplib";
import { expect, vi } from "vitest";
import type { z } from "zod";
import type { ErrorBody } from "@/lib/contract/error-codes";
import type { Endpoint, ResponseOf } from "@/lib/contract/endpoint";
import type { Handler } from "@/lib/http/route";
import { SESSION_COOKIE } from "@/lib/auth/sessions";

export const ORIGIN = "http://localhost:3000";

export type Call = {
  method?: string;
  path?: string;
  params?: Record<string, string>;
  body?: unknown;
  /** Raw body text, sent as is (for malformed-input cases). */
  rawBody?: string;
  /** Raw body bytes, sent as is (bytes that are not UTF-8, say). */
  rawBytes?: Uint8Array<ArrayBuffer>;
  /** A multipart/form-data body (an upload), sent with its boundary in Content-Type. */
  form?: FormData;
  /** A body streamed as it is read (chunked: no Content-Length unless `headers` names one). */
  stream?: ReadableStream<Uint8Array>;
  headers?: Record<string, string>;
  /** The TCP peer's address as server.mjs would report it. */
  ip?: string;
  /** A session cookie token: sends the cookie and, by default, a same-origin Origin header. */
  session?: string;
  /** An API key secret, sent as a bearer token. */
  apiKey?: string;
  totp?: string;
};

/** What `call` answers: the status, the headers and the parsed JSON body (null for an empty one; text for an answer not in JSON). */
export type Answer<Body> = { status: number; headers: Headers; body: Body };

/**
 * The body a handler's answer may carry: its response schema's output on success, or the contract's
 * error body on a refusal. A route test checks the status first, then reads the fields of the
 * answer it expects; both are typed (an error's fields as optional, since a success has none), so
 * `body.items` and `body.error_code` each check against the contract without a cast. A definition
 * without a response schema is typed as no content (null) or an error; a test that reads more of
 * such an answer names its type (`call<OpenApiDocument>(GET)`).
 */
export type AnswerBody<E extends Endpoint> = E["response"] extends z.ZodType
  ? ResponseOf<E> & Partial<ErrorBody>
  : Partial<ErrorBody> | null;

/**
 * Calls a route handler in-process, as Next.js would, and returns status, headers and the parsed
 * JSON body, typed from the handler's endpoint definition (see AnswerBody). A caller may name the
 * body type instead (`call<ErrorBody>(handler)`), for a handler that carries no definition or an
 * answer its definition does not describe.
 */
export function call<E extends Endpoint>(handler: Handler<E>, options?: Call): Promise<Answer<AnswerBody<E>>>;
export function call<Body>(handler: Handler, options?: Call): Promise<Answer<Body>>;
export async function call(handler: Handler, options: Call = {}): Promise<Answer<unknown>> {
  const method = options.method ?? "GET";
  const headers = new Headers({ host: "localhost:3000", "x-forwarded-for": options.ip ?? "127.0.0.1" });
  if (options.body !== undefined || options.rawBody !== undefined || options.rawBytes !== undefined)
    headers.set("content-type", "application/json");
  if (options.session) {
    headers.set("cookie", `${SESSION_COOKIE}=${options.session}`);
    if (method !== "GET") headers.set("origin", ORIGIN);
  }
  if (options.apiKey) headers.set("authorization", `Bearer ${options.apiKey}`);
  if (options.totp) headers.set("service-totp-code", options.totp);
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  const request = new Request(`${ORIGIN}${options.path ?? "/v1/test"}`, {
    method,
    headers,
    body:
      options.form ??
      options.stream ??
      options.rawBytes ??
      options.rawBody ??
      (options.body === undefined ? undefined : JSON.stringify(options.body)),
    ...(options.stream ? { duplex: "half" } : {}),
  });
  const response = await handler(request, { params: Promise.resolve(options.params ?? {}) });
  const text = await response.text();
  // A `produces` route's own answer (a file, a CSV export) comes back as its text.
  const json = /^application\/json/.test(response.headers.get("content-type") ?? "application/json");
  const body: unknown = text ? (json ? JSON.parse(text) : text) : null;
  return { status: response.status, headers: response.headers, body };
}

/** The answer is the contract's error: this status and `error_code`. */
export function expectError(
  answer: { status: number; body: { error_code?: unknown } | null },
  status: number,
  errorCode: string,
) {
  expect(answer.status).toBe(status);
  expect(answer.body?.error_code).toBe(errorCode);
}

/** The answer is 201 with exactly these fields, a new id matching `idPattern` and a createdAt. */
export function expectCreated(
  answer: { status: number; body: unknown },
  idPattern: RegExp,
  fields: Record<string, unknown>,
) {
  expect(answer.status).toBe(201);
  expect(answer.body).toEqual({ id: expect.stringMatching(idPattern), ...fields, createdAt: expect.any(String) });
}

/** A page of a cursor-paged list, as far as the paging helpers read it. */
export type IdPage = { items: { id: string }[]; next: string | null };

/**
 * Follows `next` from the first page to the last, as a client would, each page answering 200: the ids
 * of each page, in order (at most 50 pages, so a cursor that never ends fails the test's count).
 */
export async function idPages(
  list: (query: Record<string, string>) => Promise<Answer<IdPage>>,
  query: Record<string, string> = {},
): Promise<string[][]> {
  const pages: string[][] = [];
  let next: string | null = null;
  do {
    const response = await list(next ? { ...query, next } : query);
    expect(response.status).toBe(200);
    if (!response.body) throw new Error("a page answered without a body");
    pages.push(response.body.items.map((item) => item.id));
    next = response.body.next;
  } while (next && pages.length < 50);
  return pages;
}

/**
 * Pages through a list in both orders, `limit` at a time: `pageCount` pages that hold every one of
 * `ids` exactly once (no repeats, no skips).
 */
export async function expectEachIdOnce(
  list: (query: Record<string, string>) => Promise<Answer<IdPage>>,
  ids: string[],
  { limit, pageCount }: { limit: string; pageCount: number },
) {
  for (const order of ["desc", "asc"]) {
    const pages = await idPages(list, { limit, order });
    const seen = pages.flat();
    expect(pages, order).toHaveLength(pageCount);
    expect(new Set(seen).size, order).toBe(ids.length);
    expect([...seen].sort(), order).toEqual([...ids].sort());
  }
}

/** The `next` cursor of a page that has one (a last page's null fails the test here). */
export function cursorOf(page: Answer<{ next?: string | null }>): string {
  const next = page.body.next;
  if (typeof next !== "string") throw new Error(`expected a next cursor, got ${JSON.stringify(page.body)}`);
  return next;
}

/** The session token from a Set-Cookie header. */
export function sessionFrom(headers: Headers): string {
  const match = new RegExp(`${SESSION_COOKIE}=([^;]*)`).exec(headers.get("set-cookie") ?? "");
  if (!match?.[1]) throw new Error("no session cookie set");
  return match[1];
}

/**
 * An authenticator app whose clock moves on a step after each code, so consecutive TOTP-gated calls
 * in one test each get a fresh code (the service accepts each time step once). Date.now is shifted
 * for otplib only in effect; new Date() elsewhere keeps real time.
 */
export class Authenticator {
  private offsetSteps = 0;
  constructor(readonly secret: string) {}

  codeAt(epochSeconds: number) {
    return generateSync({ secret: this.secret, epoch: epochSeconds });
  }

  /** A well-formed code that matches none of the steps the service would accept now. */
  wrongCode(): string {
    const now = Math.floor(Date.now() / 1000);
    const live = new Set([-30, 0, 30].map((offset) => this.codeAt(now + offset)));
    return ["000000", "111111", "222222", "333333"].find((code) => !live.has(code))!;
  }

  /** Several distinct wrong codes. */
  wrongCodes(count: number): string[] {
    const now = Math.floor(Date.now() / 1000);
    const live = new Set([-30, 0, 30].map((offset) => this.codeAt(now + offset)));
    return Array.from({ length: 10 }, (_, i) => String(i).repeat(6))
      .filter((code) => !live.has(code))
      .slice(0, count);
  }

  /** A code for the current virtual time step, then moves the virtual clock on a step. */
  nextCode(): string {
    // Real time, not Date.now: after the first code Date.now is this class's own mock.
    const realNow = Date.prototype.getTime.call(new Date());
    const shifted = realNow + this.offsetSteps * 30_000;
    vi.spyOn(Date, "now").mockImplementation(() => shifted + (Date.prototype.getTime.call(new Date()) - realNow));
    this.offsetSteps += 1;
    return this.codeAt(Math.floor(shifted / 1000));
  }
}
