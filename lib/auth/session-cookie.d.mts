// Types for session-cookie.mjs (plain JavaScript so server.mjs, through edge.mjs, can import it).
export declare const SESSION_COOKIE: "pmc_session";
export declare function countSessionCookies(cookieHeader: string | null | undefined): number;
