import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { env } from "@/lib/env";
import { addressProblem, inspect, isLoopback, parseIp } from "@/lib/net/address-rules";

// The outbound gate: every request the service sends to a URL a user supplied (webhook deliveries and
// tests, single sign-on discovery, token and JWKS calls) goes through outboundRequest, so one address
// policy holds for all of them (lib/net/address-rules.ts):
// - checked on the URL as written, then on every address its host name resolves to, right before the
//   request, and the connection goes to exactly the address checked (no second lookup can answer
//   differently; the host name is still sent in Host and as the TLS server name);
// - no redirect is followed, so there is no later hop to check: a 3xx is the answer;
// - a request that gets no HTTP answer fails with one message, whatever went wrong (refused, reset,
//   filtered, timed out, TLS): the caller cannot tell an open port from a closed or filtered one, which
//   would make the service a port scanner. What went wrong goes to the service's log (`detail`).
// lib/net/outbound-walk.test.ts fails when code elsewhere opens a connection of its own.

/** What the calls of one feature may reach beyond public addresses, and how messages name them. */
export type OutboundPolicy = {
  /** Who the calls are for, as messages name them ("webhooks"). */
  label: string;
  /** Private, link-local, CGNAT, unique-local and loopback addresses (webhooks with WEBHOOK_ALLOW_PRIVATE). */
  allowPrivate: boolean;
  /** Loopback alone, over http or https (single sign-on with SSO_ALLOW_INSECURE_ISSUER). */
  allowLoopback: boolean;
};

/** Webhook deliveries and tests: WEBHOOK_ALLOW_PRIVATE opens private and loopback targets. */
export const webhookPolicy = (): OutboundPolicy => ({
  label: "webhooks",
  allowPrivate: env().WEBHOOK_ALLOW_PRIVATE,
  allowLoopback: env().WEBHOOK_ALLOW_PRIVATE,
});

/** Single sign-on: SSO_ALLOW_INSECURE_ISSUER opens loopback (a provider on this machine), nothing else. */
export const ssoPolicy = (): OutboundPolicy => ({
  label: "single sign-on requests",
  allowPrivate: false,
  allowLoopback: env().SSO_ALLOW_INSECURE_ISSUER,
});

/**
 * An outbound request refused or failed. `message` is for whoever supplied the URL (a tenant reads it in
 * a delivery log or a form): it says what failed, never an address a name resolved to, nor anything that
 * tells open ports from closed ones. `detail` is for the service's log.
 */
export class OutboundError extends Error {
  override name = "OutboundError";
  constructor(
    message: string,
    readonly detail: string = message,
    /** The HTTP status, when an answer had begun before the failure. */
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

/** The one message for a request that got no HTTP answer, whatever the reason. */
export const noAnswer = (timeoutMs: number) => `could not connect, or no answer within ${timeoutMs / 1000} s`;

/** A system error code (ENOTFOUND, EAI_AGAIN): a fixed name that carries no address, unlike the error's message. */
export const errorCode = (error: unknown): string | null => {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === "string" && /^[A-Z][A-Z0-9_]{1,63}$/.test(code) ? code : null;
};

export type LookupAll = (hostname: string) => Promise<{ address: string; family: number }[]>;

const lookupAll: LookupAll = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * The address to connect to for `url`: the literal address, or the host name resolved with every address
 * it resolves to checked (one bad address refuses the request, so DNS cannot slip a private address in
 * beside a public one). Throws OutboundError ("address not allowed: ...", "could not resolve ...").
 */
export async function resolveTarget(
  url: string,
  policy: OutboundPolicy,
  lookup: LookupAll = lookupAll,
): Promise<{ address: string; family: 4 | 6; hostname: string }> {
  const { allowPrivate, allowLoopback, label } = policy;
  const parsed = inspect(url, allowPrivate, { allowLoopback, label });
  // The URL as written (refused when it was saved too, unless the server's settings changed since).
  if ("problem" in parsed) throw new OutboundError(`address not allowed: url ${parsed.problem}`);
  const { host, literal } = parsed;
  if (literal) return { address: literal.toString(), family: literal.kind() === "ipv4" ? 4 : 6, hostname: host };
  let answers: { address: string; family: number }[];
  try {
    answers = await lookup(host);
  } catch (error) {
    const code = errorCode(error);
    throw new OutboundError(
      `could not resolve ${host}${code ? ` (${code})` : ""}`,
      `could not resolve ${host}: ${(error as Error).message}`,
    );
  }
  if (answers.length === 0) throw new OutboundError(`could not resolve ${host} (no addresses)`);
  const addresses = answers.map((answer) => {
    const address = parseIp(answer.address);
    if (!address)
      throw new OutboundError(
        `could not resolve ${host} (an answer is not an IP address)`,
        `${host} resolved to ${answer.address}, which is not an IP address`,
      );
    const problem = addressProblem(address.toString(), allowPrivate, { allowLoopback, label });
    if (problem) {
      throw new OutboundError(
        `address not allowed: ${host} resolves to an address ${label} may not reach`,
        `${host} resolves to ${address.toString()}, which ${problem}`,
      );
    }
    if (parsed.url.protocol === "http:" && !isLoopback(address)) {
      throw new OutboundError(
        `address not allowed: ${host} resolves to an address that is not loopback; http is only for loopback`,
        `${host} resolves to ${address.toString()}, which is not loopback; http is only for loopback`,
      );
    }
    return address;
  });
  const chosen = addresses[0]!;
  return { address: chosen.toString(), family: chosen.kind() === "ipv4" ? 4 : 6, hostname: host };
}

export type OutboundAnswer = {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** At most `maxBytes` of the body: reading stops there. */
  body: Buffer;
  /** Whether the body was longer than `maxBytes`. */
  truncated: boolean;
};

export type OutboundCall = {
  url: string;
  policy: OutboundPolicy;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** The whole request, connection to last byte read. */
  timeoutMs: number;
  /** How much of the answer's body to read. */
  maxBytes: number;
  signal?: AbortSignal;
  lookup?: LookupAll;
};

/**
 * Sends one request to a URL a user supplied, under `policy`. Answers the status, headers and (the
 * first `maxBytes` of) the body of whatever HTTP answer comes back, redirects included (never followed).
 * Throws OutboundError when the address is refused, the name does not resolve, or no HTTP answer came
 * (one message for every such failure: noAnswer()).
 */
export async function outboundRequest(call: OutboundCall): Promise<OutboundAnswer> {
  const { url, policy, timeoutMs, maxBytes, signal } = call;
  const { address, hostname } = await resolveTarget(url, policy, call.lookup);
  const target = new URL(url);
  const secure = target.protocol === "https:";
  const failed = (what: string, error?: unknown) => {
    const code = errorCode(error);
    return new OutboundError(noAnswer(timeoutMs), `${target.host}: ${what}${code ? ` (${code})` : ""}`);
  };
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", aborted);
      request.destroy();
      if ("answer" in outcome) resolve(outcome.answer);
      else reject(outcome.error);
    };
    const body = call.body === undefined ? undefined : Buffer.from(call.body);
    const request = (secure ? https : http).request(
      {
        host: address,
        port: target.port ? Number(target.port) : secure ? 443 : 80,
        method: call.method ?? "GET",
        path: `${target.pathname}${target.search}`,
        headers: {
          ...call.headers,
          Host: target.host,
          ...(body ? { "Content-Length": String(body.byteLength) } : {}),
        },
        // Never through an agent's pool: a kept connection could lead to an address checked for another name.
        agent: false,
        ...(secure && !isIP(hostname) ? { servername: hostname } : {}),
      },
      (response) => readAnswer(response, { host: target.host, maxBytes }, finish),
    );
    request.on("error", (error) => finish({ error: failed("no answer", error) }));
    const timer = setTimeout(() => finish({ error: failed(`timed out after ${timeoutMs} ms`) }), timeoutMs);
    const aborted = () => finish({ error: failed("aborted by the caller") });
    if (signal?.aborted) return aborted();
    signal?.addEventListener("abort", aborted);
    request.end(body);
  });
}

type Outcome = { answer: OutboundAnswer } | { error: OutboundError };

/** Reads at most `maxBytes` of the answer's body (the rest is not waited for), then settles the request. */
function readAnswer(
  response: http.IncomingMessage,
  { host, maxBytes }: { host: string; maxBytes: number },
  finish: (outcome: Outcome) => void,
) {
  const status = response.statusCode ?? 0;
  const chunks: Buffer[] = [];
  let size = 0;
  const done = () =>
    finish({
      answer: {
        status,
        headers: response.headers,
        body: Buffer.concat(chunks).subarray(0, maxBytes),
        truncated: size > maxBytes,
      },
    });
  response.on("data", (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    if (size > maxBytes) done();
  });
  response.on("end", done);
  response.on("error", (error) =>
    finish({
      error: new OutboundError(
        `connection lost while reading the answer (HTTP ${status})`,
        `${host}: connection lost while reading the answer (HTTP ${status}, ${errorCode(error) ?? error.message})`,
        status,
      ),
    }),
  );
}

/**
 * A `fetch` for libraries that take one (openid-client's customFetch): each request goes through
 * outboundRequest under `policy`. The library's redirect setting is not consulted: none is followed.
 */
export function outboundFetch(
  policy: OutboundPolicy,
  { timeoutMs, maxBytes }: { timeoutMs: number; maxBytes: number },
) {
  return async (
    url: string,
    options: { method?: string; headers?: Record<string, string>; body?: unknown; signal?: AbortSignal },
  ) => {
    // A form (a token request) goes as fetch would send it: its text.
    const body = options.body instanceof URLSearchParams ? options.body.toString() : options.body;
    if (body !== undefined && body !== null && typeof body !== "string" && !(body instanceof Uint8Array)) {
      throw new TypeError(`outboundFetch sends text, form or byte bodies, not ${Object.prototype.toString.call(body)}`);
    }
    const answer = await outboundRequest({
      url,
      policy,
      method: options.method,
      headers: options.headers,
      body: body ?? undefined,
      timeoutMs,
      maxBytes,
      signal: options.signal,
    });
    if (answer.truncated) throw new OutboundError(`the answer is larger than ${maxBytes} bytes`);
    // The Fetch API takes statuses 200..599 only; anything else is no HTTP answer either.
    if (answer.status < 200 || answer.status > 599) {
      throw new OutboundError(noAnswer(timeoutMs), `${new URL(url).host}: HTTP status ${answer.status}`);
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
    }
    const empty = answer.status === 204 || answer.status === 205 || answer.status === 304;
    return new Response(empty ? null : new Uint8Array(answer.body), { status: answer.status, headers });
  };
}
