// The process's log: one JSON object a line on stdout (pino), or pino-pretty's lines for a person at a
// terminal. server.mjs installs the logger before anything else loads (installLogger) and routes the
// console into it, so what Next.js or a library prints becomes a line of the same log. The app's own code
// logs through `log` below, which falls back to the console where no server installed a logger (tests,
// `next dev`).
import { format } from "node:util";

const LOGGER = Symbol.for("platform-compliance.logger");

/**
 * Fields that may carry a secret, wherever a log call puts them (at the top or one level down):
 * redacted by pino before the line is written, so a careless call cannot leak one.
 */
const SECRET_FIELDS = [
  "authorization",
  "cookie",
  "setCookie",
  "password",
  "newPassword",
  "currentPassword",
  "token",
  "accessToken",
  "refreshToken",
  "idToken",
  "secret",
  "clientSecret",
  "apiKey",
  "code",
  "totp",
  "totpCode",
  "otp",
  "setupToken",
];
export const REDACTED_PATHS = [
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `*.${field}`),
  ...["authorization", "cookie", "set-cookie", "x-api-key", "service-totp-code"].map(
    (header) => `*.headers["${header}"]`,
  ),
];

const LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"];

/** LOG_FORMAT and LOG_LEVEL, checked: a bad value is named, with what it may be. */
export function logSettings(environment = process.env) {
  const logFormat = environment.LOG_FORMAT || (environment.NODE_ENV === "production" ? "json" : "pretty");
  if (logFormat !== "json" && logFormat !== "pretty")
    throw new Error(`LOG_FORMAT must be json or pretty (got ${JSON.stringify(logFormat)})`);
  const level = environment.LOG_LEVEL || "info";
  if (!LEVELS.includes(level))
    throw new Error(`LOG_LEVEL must be one of ${LEVELS.join(", ")} (got ${JSON.stringify(level)})`);
  return { format: logFormat, level };
}

/**
 * The process's logger, made once: pino with ISO 8601 `time`, `level` as a word, `msg`, and the secret
 * fields redacted. JSON lines are written to stdout as they are logged (pino's synchronous destination, as its default).
 */
export async function installLogger(environment = process.env) {
  if (globalThis[LOGGER]) return globalThis[LOGGER];
  const settings = logSettings(environment);
  const { default: pino } = await import("pino");
  const destination =
    settings.format === "pretty"
      ? (await import("pino-pretty")).default({ sync: true, colorize: Boolean(process.stdout.isTTY) })
      : pino.destination({ dest: 1, sync: true });
  const options = {
    level: settings.level,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    base: { pid: process.pid },
  };
  const logger = pino({ ...options, redact: { paths: REDACTED_PATHS, censor: "[redacted]" } }, destination);
  logger.writeAccessLine = accessLineWriter(settings, pino(options, destination), destination);
  logger.flushLogs = () => destination.flushSync?.();
  globalThis[LOGGER] = logger;
  // process.exit() anywhere (a refused setting, say) still writes what is held.
  process.once("exit", flushLogs);
  return logger;
}

/**
 * How the access lines (lib/observability/access-log.mjs) are written: the same JSON line pino would write
 * (`level`, `time`, `pid`, the fields, `msg`), made here in one JSON.stringify and written to the logger's
 * stream. Their fields are fixed (ids, the method, the route template, the status, never a value a client
 * sent), so the redaction every other line goes through (30 µs of CPU a line) has nothing to find in them;
 * the bench measures what a line costs. Pretty lines go through pino-pretty as any other; below `info`, none.
 */
function accessLineWriter(settings, plain, destination) {
  if (!plain.isLevelEnabled("info")) return () => {};
  if (settings.format !== "json") return (fields) => plain.info(fields, "request");
  const pid = `,"pid":${process.pid},`;
  return (fields) => {
    const body = JSON.stringify(fields);
    destination.write(
      `{"level":"info","time":"${new Date().toISOString()}"${pid}${body.slice(1, -1)},"msg":"request"}\n`,
    );
  };
}

/** Writes what the logger holds; before process.exit(), which would drop it. */
export function flushLogs() {
  try {
    globalThis[LOGGER]?.flushLogs();
  } catch {
    // stdout already closed: nothing more can be written anyway.
  }
}

/** console.log, .info, .warn, .error and .debug as lines of the log: an Error among the arguments becomes `err`. */
export function routeConsoleTo(logger) {
  const methods = { log: "info", info: "info", warn: "warn", error: "error", debug: "debug" };
  for (const [method, level] of Object.entries(methods)) {
    console[method] = (...args) => {
      const error = args.find((arg) => arg instanceof Error);
      const rest = error ? args.filter((arg) => arg !== error) : args;
      logger[level](error ? { err: error } : {}, format(...rest));
    };
  }
}

/** The console's way for a level, where no logger is installed. */
const CONSOLE_OF = { debug: "debug", info: "log", warn: "warn", error: "error" };

function emit(level, fields, message) {
  const logger = globalThis[LOGGER];
  if (logger) return logger[level](fields, message);
  const { err, ...all } = fields;
  const rest = Object.fromEntries(Object.entries(all).filter(([name]) => !SECRET_FIELDS.includes(name)));
  const extra = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : "";
  const error = err instanceof Error ? `: ${err.stack}` : "";
  console[CONSOLE_OF[level]](`${message}${extra}${error}`);
}

/** The app's log: `log.error({ requestId, err }, "what happened")`, fields first as in pino. */
export const log = {
  debug: (fields, message) => emit("debug", fields, message),
  info: (fields, message) => emit("info", fields, message),
  warn: (fields, message) => emit("warn", fields, message),
  error: (fields, message) => emit("error", fields, message),
};
