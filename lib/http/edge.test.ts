import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { SESSION_COOKIE as SESSIONS_COOKIE } from "@/lib/auth/sessions";
import { validationError } from "@/lib/http/api-error";
import { countSessionCookies, SESSION_COOKIE } from "@/lib/auth/session-cookie.mjs";
import {
  ALLOWED_METHODS,
  edgeRefusal,
  edgeSettings,
  hostAllowed,
  isPageRequest,
  pageCsp,
  prototypeKeyInQuery,
  refusalBody,
  requestPathOf,
  type EdgeRequest,
} from "@/lib/http/edge.mjs";
import { prototypeKeyIssues } from "@/lib/contract/text";
import { config as devProxyConfig } from "@/proxy.dev";
import { createRequire } from "node:module";
import type { NextConfig } from "next";

const request = (overrides: Partial<EdgeRequest> = {}): EdgeRequest => ({
  method: "GET",
  path: "/v1/api_keys",
  host: "compliance.example.com",
  forwardedHost: null,
  authorizationCount: 0,
  cookie: null,
  ...overrides,
});

const configured = edgeSettings({ APP_ORIGIN: "https://compliance.example.com" });
const open = edgeSettings({});

describe("edgeSettings", () => {
  // server.mjs reads the environment through edgeSettings, the app through lib/env.ts: they must agree.
  it.each([
    {},
    { COOKIE_SECURE: "true", TRUST_PROXY: "true" },
    { COOKIE_SECURE: "on", TRUST_PROXY: "2" },
    { COOKIE_SECURE: "0", TRUST_PROXY: "false", APP_ORIGIN: "https://compliance.example.com" },
    { COOKIE_SECURE: "yes", APP_ORIGIN: "http://localhost:3000/" },
  ])("reads %j as lib/env.ts does", (source) => {
    const parsed = parseEnv(source);
    const settings = edgeSettings(source);
    expect(settings.cookieSecure).toBe(parsed.COOKIE_SECURE);
    expect(settings.trustProxy).toBe(parsed.TRUST_PROXY);
    expect(settings.appHosts?.[0] ?? null).toBe(parsed.APP_ORIGIN ? new URL(parsed.APP_ORIGIN).host : null);
  });

  it("takes APP_ORIGIN's host with and without its default port", () => {
    expect(configured.appHosts).toEqual(["compliance.example.com", "compliance.example.com:443"]);
    expect(edgeSettings({ APP_ORIGIN: "http://Admin.Example.com:8080/path" }).appHosts).toEqual([
      "admin.example.com:8080",
    ]);
  });

  it("names the same session cookie as lib/auth/sessions.ts", () => {
    expect(SESSION_COOKIE).toBe(SESSIONS_COOKIE);
  });
});

describe("hostAllowed", () => {
  it("any Host without APP_ORIGIN", () => {
    expect(hostAllowed({ host: "anything.example", forwardedHost: null }, open)).toBe(true);
    expect(hostAllowed({ host: undefined, forwardedHost: null }, open)).toBe(true);
  });

  it.each(["compliance.example.com", "COMPLIANCE.example.com", "compliance.example.com:443"])(
    "accepts %j for APP_ORIGIN's host",
    (host) => {
      expect(hostAllowed({ host, forwardedHost: null }, configured)).toBe(true);
    },
  );

  it.each(["evil.example", "compliance.example.com.evil.example", "compliance.example.com:8443", "", undefined])(
    "refuses %j",
    (host) => {
      expect(hostAllowed({ host, forwardedHost: null }, configured)).toBe(false);
    },
  );

  it("reads X-Forwarded-Host only behind a trusted proxy, and then every entry must match", () => {
    const behindProxy = edgeSettings({ APP_ORIGIN: "https://compliance.example.com", TRUST_PROXY: "1" });
    expect(hostAllowed({ host: "10.0.0.5:3000", forwardedHost: "compliance.example.com" }, behindProxy)).toBe(true);
    expect(hostAllowed({ host: "compliance.example.com", forwardedHost: "evil.example" }, behindProxy)).toBe(false);
    expect(
      hostAllowed(
        { host: "compliance.example.com", forwardedHost: "evil.example, compliance.example.com" },
        behindProxy,
      ),
    ).toBe(false);
    // Without TRUST_PROXY a client's own X-Forwarded-Host means nothing, either way.
    expect(hostAllowed({ host: "compliance.example.com", forwardedHost: "evil.example" }, configured)).toBe(true);
    expect(hostAllowed({ host: "evil.example", forwardedHost: "compliance.example.com" }, configured)).toBe(false);
  });
});

describe("countSessionCookies", () => {
  it.each([
    [null, 0],
    ["", 0],
    ["theme=dark", 0],
    [`${SESSION_COOKIE}=a`, 1],
    [`theme=dark; ${SESSION_COOKIE}=a; other=${SESSION_COOKIE}`, 1],
    [`x${SESSION_COOKIE}=a; ${SESSION_COOKIE}x=b`, 0],
    [`${SESSION_COOKIE}=a; ${SESSION_COOKIE}=b`, 2],
    // Node joins repeated Cookie lines with "; ", a WHATWG Headers object with ", ".
    [`${SESSION_COOKIE}=a, ${SESSION_COOKIE}=b`, 2],
    [`${SESSION_COOKIE}=a;${SESSION_COOKIE}=`, 2],
  ] as const)("%j has %i", (header, count) => {
    expect(countSessionCookies(header)).toBe(count);
  });
});

describe("edgeRefusal", () => {
  it("lets an ordinary request through", () => {
    expect(edgeRefusal(request(), configured)).toBeNull();
    expect(
      edgeRefusal(request({ host: "localhost:3000", cookie: `${SESSION_COOKIE}=a`, authorizationCount: 1 }), open),
    ).toBeNull();
  });

  it.each(ALLOWED_METHODS)("lets %s through", (method) => {
    expect(edgeRefusal(request({ method }), configured)).toBeNull();
  });

  it.each(["TRACE", "CONNECT", "PROPFIND", "TRACK", "get", "PURGE"])("405 for %s, with Allow", (method) => {
    expect(edgeRefusal(request({ method }), open)).toEqual({
      status: 405,
      code: "err_method_not_allowed",
      message: expect.stringContaining(method),
      headers: { Allow: "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS" },
    });
  });

  it("400 for another Host when APP_ORIGIN is set, on pages and the API; /healthz answers any Host", () => {
    for (const path of ["/v1/api_keys", "/login", "/", "/_next/static/chunks/app.js"]) {
      expect(edgeRefusal(request({ path, host: "evil.example" }), configured)).toMatchObject({
        status: 400,
        code: "err_bad_request",
      });
      expect(edgeRefusal(request({ path, host: "evil.example" }), open)).toBeNull();
    }
    expect(edgeRefusal(request({ path: "/healthz", host: "10.0.0.7:3000" }), configured)).toBeNull();
  });

  it("400 for two Authorization headers or two session cookies", () => {
    expect(edgeRefusal(request({ authorizationCount: 2 }), open)).toMatchObject({
      status: 400,
      code: "err_bad_request",
      message: expect.stringMatching(/Authorization/),
    });
    expect(edgeRefusal(request({ cookie: `${SESSION_COOKIE}=a; ${SESSION_COOKIE}=b` }), open)).toMatchObject({
      status: 400,
      code: "err_bad_request",
      message: expect.stringMatching(SESSION_COOKIE),
    });
  });
});

describe("prototype keys in the query string (Next.js drops __proto__ before a route handler sees it)", () => {
  it.each([
    ["__proto__=1", "__proto__"],
    ["__proto__", "__proto__"],
    ["limit=5&__proto__=x", "__proto__"],
    ["%5F%5Fproto%5F%5F=1", "__proto__"],
    ["__proto%5f_=1", "__proto__"],
    ["constructor=x", "constructor"],
    ["a=1&prototype", "prototype"],
  ])("422 for %j, the route wrapper's own answer, on the API and elsewhere", (query, key) => {
    const expected = validationError(prototypeKeyIssues(JSON.parse(`{${JSON.stringify(key)}:"1"}`)), "query");
    for (const path of ["/v1/recipients", "/v1", "/v1/nothing/here", "/login"]) {
      const refusal = edgeRefusal(request({ path, query }), open);
      expect(refusal, path).toMatchObject({ status: expected.status, code: expected.code, message: expected.message });
      expect(JSON.parse(refusalBody(refusal!, "req_1")), path).toEqual(
        JSON.parse(JSON.stringify(expected.body("req_1"))),
      );
    }
  });

  it.each([
    "",
    "proto=1",
    "__proto=1",
    "x=__proto__",
    "__proto__x=1",
    "Constructor=1",
    "__PROTO__=1",
    "a[__proto__]=1",
  ])("lets %j through", (query) => {
    expect(edgeRefusal(request({ query }), open)).toBeNull();
    expect(prototypeKeyInQuery(query)).toBeNull();
  });

  it("a refusal without details has none in its body", () => {
    expect(JSON.parse(refusalBody(edgeRefusal(request({ authorizationCount: 2 }), open)!, "req_1"))).not.toHaveProperty(
      "details",
    );
  });
});

describe("pageCsp", () => {
  it("allows scripts only with the nonce (no unsafe-inline or eval), and no framing", () => {
    const csp = pageCsp("abc123==");
    const directives = Object.fromEntries(csp.split("; ").map((directive) => [directive.split(" ")[0], directive]));
    expect(directives["script-src"]).toBe("script-src 'self' 'nonce-abc123==' 'strict-dynamic'");
    expect(directives["style-src"]).toBe("style-src 'self' 'nonce-abc123=='");
    expect(directives["frame-ancestors"]).toBe("frame-ancestors 'none'");
    expect(directives["object-src"]).toBe("object-src 'none'");
    expect(csp).not.toMatch(/unsafe-eval/);
    expect(csp.replace("style-src-attr 'unsafe-inline'", "")).not.toMatch(/unsafe-inline/);
  });

  it("allows eval and inline styles only for `next dev`", () => {
    expect(pageCsp("n", { development: true })).toMatch(/script-src [^;]*'unsafe-eval'/);
  });
});

describe("isPageRequest: the requests whose answers get pageCsp (server.mjs; proxy.dev.ts's matcher under `next dev`)", () => {
  const noHeaders = () => undefined;
  const matcher = devProxyConfig.matcher[0]!;
  const matchedByDevProxy = (path: string) => new RegExp(`^${matcher.source}$`).test(path);
  it.each([
    ["/", true],
    ["/login", true],
    ["/api-keys/key_1?account=acct_1", true],
    ["/v1-docs", true],
    ["/healthz/x", true],
    ["/v1", false],
    ["/v1/api_keys", false],
    ["/v1/", false],
    ["/healthz", false],
    ["/_next/static/chunks/app.js", false],
    ["/_next/image", false],
    ["/icon.svg", false],
    ["/favicon.ico", false],
  ])("%s: %s, as the development proxy's matcher says", (path, page) => {
    expect(isPageRequest(path, noHeaders)).toBe(page);
    expect(matchedByDevProxy(path)).toBe(page);
  });

  it("not the router's prefetches (RSC data, not documents), as the development proxy's `missing` says", () => {
    expect(isPageRequest("/login", (name) => (name === "next-router-prefetch" ? "1" : undefined))).toBe(false);
    expect(isPageRequest("/login", (name) => (name === "purpose" ? "prefetch" : undefined))).toBe(false);
    expect(isPageRequest("/login", (name) => (name === "purpose" ? "other" : null))).toBe(true);
    expect(matcher.missing).toEqual([
      { type: "header", key: "next-router-prefetch" },
      { type: "header", key: "purpose", value: "prefetch" },
    ]);
  });
});

describe("requestPathOf: the page address the dashboard's layout returns to after sign-in", () => {
  it.each([
    ["/requests", "", "/requests"],
    ["/requests", "status=open&status=overdue", "/requests?status=open&status=overdue"],
    ["/requests", "_rsc=abc", "/requests"],
    ["/requests", "status=open&_rsc=abc", "/requests?status=open"],
  ])("%s ? %s: %s", (path, query, expected) => {
    expect(requestPathOf(path, query)).toBe(expected);
  });
});

describe("next.config.js: a proxy under `next dev` only", () => {
  const nextConfig = createRequire(import.meta.url)("../../next.config.js") as (phase: string) => NextConfig;
  it("the development server takes proxy.dev.ts's extension; builds and the production server do not", () => {
    expect(nextConfig("phase-development-server").pageExtensions).toContain("dev.ts");
    for (const phase of ["phase-production-build", "phase-production-server"])
      expect(nextConfig(phase).pageExtensions ?? []).not.toContain("dev.ts");
  });
});
