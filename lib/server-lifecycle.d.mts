// Types for server-lifecycle.mjs (plain JavaScript so server.mjs can import it).
export declare function shutdownSettings(environment?: Record<string, string | undefined>): {
  delayMs: number;
  graceMs: number;
};
export declare const lifecycle: { closing: boolean };
export declare function stopOnSignals(
  server: unknown,
  settings: { delayMs: number; graceMs: number },
  logger: unknown,
): void;
