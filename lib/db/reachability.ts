// The database named when it cannot be reached: at start, a PostgreSQL server that is down or not yet up
// (a machine booting, a container started before its database) is waited for a while, saying so once, and
// then named in one line with the reason; a server that answers but refuses (a wrong password, a database
// that does not exist) is named at once. The password is never printed: not from the URL, not from an
// error message that repeats it.

const DEFAULT_WINDOW_MS = 30_000;
const DEFAULT_INTERVAL_MS = 1_000;

/** Error codes that mean the server did not answer (yet), as opposed to answering with a refusal. */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ECONNRESET",
  // PostgreSQL's cannot_connect_now: the database system is starting up, shutting down or recovering.
  "57P03",
]);

/**
 * pg's own words for a connection that timed out or was closed before the server answered: the pool's, and
 * the client's past connectionTimeoutMillis ("timeout expired").
 */
const UNREACHABLE_MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /Connection terminated/i,
  /^timeout expired$/i,
];

/** Query parameters of a PostgreSQL URL that carry a secret (pg and libpq read both). */
const SECRET_QUERY = /([?&](?:ssl)?password=)[^&#]*/gi;

/**
 * DATABASE_URL as it may be printed: any password replaced by `***`
 * (postgresql://app:***@db.internal:5432/platform); a `file:` URL as it is. Never throws.
 */
export function describeDatabaseUrl(url: string): string {
  try {
    if (/^file:/i.test(url)) return url;
    return withMaskedPassword(url).replace(SECRET_QUERY, "$1***");
  } catch {
    return "(a URL that cannot be shown)";
  }
}

/** The URL with its password, if any, replaced by `***`. */
function withMaskedPassword(url: string): string {
  // Without `//` there is no user or password to the URL parser ("postgres:pw@db" is all path), but pg
  // might read one: mask it by hand.
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return maskUnparsedCredentials(url);
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.href;
  } catch {
    return maskUnparsedCredentials(url);
  }
}

/**
 * A URL the URL parser refused (pg may still read it its own way): whatever stands between the first `:`
 * after `//` (or after the scheme) and the last `@` is taken for a password. Masks too much rather than too little.
 */
function maskUnparsedCredentials(url: string): string {
  const span = unparsedPasswordSpan(url);
  return span ? `${url.slice(0, span.start)}***${url.slice(span.end)}` : url;
}

function unparsedPasswordSpan(url: string): { start: number; end: number } | null {
  const at = url.lastIndexOf("@");
  if (at === -1) return null;
  const slashes = url.indexOf("//");
  const colon = url.indexOf(":", slashes === -1 ? 0 : slashes + 2);
  if (colon === -1 || colon > at) return null;
  return { start: colon + 1, end: at };
}

export type WaitOptions = {
  /** DATABASE_URL: named in the messages, password hidden. */
  url: string;
  /** How long to keep trying while the server cannot be reached (default 30 s). */
  windowMs?: number;
  /** Time between tries (default 1 s). */
  intervalMs?: number;
  /** Where the one "retrying" line goes (default console.warn). */
  log?: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
};

/**
 * Runs `check` until it succeeds. While it fails because the server cannot be reached, logs that once and
 * tries again every `intervalMs` for up to `windowMs`, then throws a one-line Error naming DATABASE_URL and
 * the last reason. Any other failure (refused password, unknown database, a bad URL) is thrown at once, as
 * one line naming DATABASE_URL and the cause. `check` should give up on its own: pg waits for the operating
 * system's connect timeout (minutes) unless given connectionTimeoutMillis, as postgresqlConnects does.
 */
export async function waitForDatabase(check: () => Promise<void>, options: WaitOptions): Promise<void> {
  const {
    url,
    windowMs = DEFAULT_WINDOW_MS,
    intervalMs = DEFAULT_INTERVAL_MS,
    log = (line) => console.warn(line),
    sleep = (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
    now = Date.now,
  } = options;
  const name = `DATABASE_URL ${describeDatabaseUrl(url)}`;
  const deadline = now() + windowMs;
  let logged = false;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (!cannotReach(error)) throw new Error(`${name} cannot be used: ${causeOf(error, url)}`);
      const left = deadline - now();
      if (left <= 0) throw new Error(`${name} cannot be reached after ${seconds(windowMs)}: ${causeOf(error, url)}`);
      if (!logged) log(`${name} cannot be reached (${reasonOf(error, url)}); retrying for up to ${seconds(windowMs)}`);
      logged = true;
      await sleep(Math.min(intervalMs, left));
    }
  }
}

/**
 * A check for waitForDatabase: connects to the PostgreSQL server `url` names and disconnects, giving up on
 * one attempt after `timeoutMs` (ETIMEDOUT, instead of pg's "Connection terminated unexpectedly").
 */
export function postgresqlConnects(url: string, timeoutMs = 5_000): () => Promise<void> {
  return async () => {
    const { Client } = await import("pg");
    const client = new Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
    const started = performance.now();
    try {
      await client.connect();
    } catch (error) {
      // pg's timer runs on the event loop's clock, which may lag this one by a few milliseconds.
      if (performance.now() - started < timeoutMs - 25 || !cannotReach(error)) throw error;
      throw Object.assign(new Error(`connect ETIMEDOUT: no answer within ${seconds(timeoutMs)}`), {
        code: "ETIMEDOUT",
      });
    } finally {
      await client.end().catch(() => {});
    }
  };
}

/** Whether `error` (or one of the errors it groups, or its cause) means the server did not answer. */
export function cannotReach(error: unknown): boolean {
  return related(error).some(({ code, message }) => {
    if (typeof code === "string" && UNREACHABLE_CODES.has(code)) return true;
    return typeof message === "string" && UNREACHABLE_MESSAGES.some((pattern) => pattern.test(message));
  });
}

type ErrorLike = { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };

/** The error, the errors an AggregateError groups (Node's connect to each address of a name) and its causes. */
function related(error: unknown, depth = 0): ErrorLike[] {
  if (typeof error !== "object" || error === null || depth > 3) return [];
  const like = error as ErrorLike;
  const grouped = Array.isArray(like.errors) ? like.errors.flatMap((inner) => related(inner, depth + 1)) : [];
  return [like, ...grouped, ...related(like.cause, depth + 1)];
}

/** The error's code (ECONNREFUSED, 3D000, ...) or, without one, its message: for the "retrying" line. */
function reasonOf(error: unknown, url: string): string {
  const withCode = related(error).find(({ code }) => typeof code === "string" && code !== "");
  return withCode ? String(withCode.code) : causeOf(error, url);
}

/** The error's message (and code, when the message does not show it) on one line, without the password. */
function causeOf(error: unknown, url: string): string {
  const all = related(error);
  const messages = all.map(({ message }) => (typeof message === "string" ? message.trim() : "")).filter(Boolean);
  const first = messages[0] ?? (String(error) || "unknown error");
  const code = all.map(({ code }) => code).find((value) => typeof value === "string" && value !== "");
  const text = typeof code === "string" && !first.includes(code) ? `${first} (${code})` : first;
  return withoutSecrets(text.replace(/\s*[\r\n]+\s*/g, " "), url);
}

/**
 * `text` with DATABASE_URL shown as describeDatabaseUrl shows it, any other URL's password masked, and the
 * password itself (as written in the URL and decoded) replaced wherever it appears, when at least 4
 * characters long: a shorter one cannot be told from ordinary words.
 */
export function withoutSecrets(text: string, url: string): string {
  let clean = text.split(url).join(describeDatabaseUrl(url));
  clean = clean.replace(/([a-z][a-z0-9+.-]*:\/\/[^\s:@/]*):[^\s@]*@/gi, "$1:***@").replace(SECRET_QUERY, "$1***");
  for (const secret of passwordsIn(url)) if (secret.length >= 4) clean = clean.split(secret).join("***");
  return clean;
}

/**
 * The password of `url` as written and decoded, any password= query parameter, and what the by-hand reading
 * takes for one (where the URL has none, that can be some other part of it: masking it too is harmless).
 */
function passwordsIn(url: string): string[] {
  const found: string[] = [];
  const span = unparsedPasswordSpan(url);
  if (span) found.push(url.slice(span.start, span.end));
  try {
    const parsed = new URL(url);
    found.push(parsed.password);
    for (const key of ["password", "sslpassword"]) found.push(parsed.searchParams.get(key) ?? "");
  } catch {
    // unparseable: the span above is all there is
  }
  for (const secret of [...found]) found.push(safeDecode(secret));
  // Longest first, so a password that contains another is replaced whole.
  return [...new Set(found.filter(Boolean))].sort((a, b) => b.length - a.length);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** 30000 -> "30 s", 1500 -> "1.5 s". */
function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
