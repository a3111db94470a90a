// Types for web-concurrency.mjs (plain JavaScript so server.mjs can import it).
export declare const WEB_CONCURRENCY_MAX: number;
export declare function parseWebConcurrency(value: string | undefined): { workers: number } | { error: string };
