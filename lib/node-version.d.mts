// Types for node-version.mjs (plain JavaScript so scripts/start.mjs and server.mjs can import it).
export declare const SUPPORTED_NODE: string;
export declare function unsupportedNodeMessage(version: string, range?: string): string | null;
