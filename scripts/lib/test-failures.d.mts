// Types for test-failures.mjs (plain JavaScript so scripts/test.mjs runs it without a build).
export declare function firstLine(message: unknown): string;
/** Null when there is no readable report. */
export declare function vitestFailures(file: string): string[] | null;
export declare function playwrightFailures(file: string): string[] | null;
export declare function failureLines(failures: string[] | null): string[];
