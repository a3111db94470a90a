// Types for log.mjs (plain JavaScript so server.mjs can import it).
export type LogFields = { err?: unknown; [field: string]: unknown };
type LogCall = (fields: LogFields, message: string) => void;
export declare const log: { debug: LogCall; info: LogCall; warn: LogCall; error: LogCall };
export declare const REDACTED_PATHS: readonly string[];
export declare function logSettings(environment?: Record<string, string | undefined>): {
  format: "json" | "pretty";
  level: string;
};
export declare function flushLogs(): void;
