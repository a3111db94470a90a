// Types for edge.mjs (plain JavaScript so server.mjs can import it).
export declare const ALLOWED_METHODS: readonly string[];
export declare const SECURITY_HEADERS: Readonly<
  Record<"X-Content-Type-Options" | "Referrer-Policy" | "X-Frame-Options" | "Content-Security-Policy", string>
>;
export declare const HSTS: string;

export type EdgeSettings = { appHosts: string[] | null; cookieSecure: boolean; trustProxy: number };
export type EdgeRequest = {
  method: string;
  path: string;
  /** The raw query string, without "?" (server.mjs); proxy.dev.ts passes none (Next.js has already dropped `__proto__`). */
  query?: string;
  host: string | null | undefined;
  forwardedHost: string | null | undefined;
  authorizationCount: number;
  cookie: string | null | undefined;
};
export type Refusal = {
  status: 400 | 405 | 422;
  code: "err_bad_request" | "err_method_not_allowed" | "err_validation";
  message: string;
  headers?: Record<string, string>;
  details?: Record<string, string>;
};

export declare const REQUEST_PATH_HEADER: "x-request-path";
export declare function isPageRequest(
  path: string,
  header: (name: string) => string | string[] | null | undefined,
): boolean;
export declare function requestPathOf(path: string, query: string | undefined): string;
export declare function pageCsp(nonce: string, options?: { development?: boolean }): string;
export declare function edgeSettings(source: Record<string, string | undefined>): EdgeSettings;
export declare function hostAllowed(
  request: Pick<EdgeRequest, "host" | "forwardedHost">,
  settings: EdgeSettings,
): boolean;
export declare function prototypeKeyInQuery(query: string | undefined): string | null;
export declare function edgeRefusal(request: EdgeRequest, settings: EdgeSettings): Refusal | null;
export declare const CLIENT_REQUEST_ID: RegExp;
export declare const SERVER_REQUEST_ID_HEADER: string;
export declare const SERVER_REQUEST_IDS: unique symbol;
export declare const SERVER_REQUEST_ID: RegExp;
export declare function refusalBody(refusal: Refusal, requestId: string): string;
