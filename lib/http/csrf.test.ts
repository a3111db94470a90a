import { describe, expect, it } from "vitest";
import { isSameOrigin } from "@/lib/http/csrf";
import { resetEnv } from "@/lib/env";
import { signedInEmployee } from "@/lib/testing/factories";
import { call, ORIGIN } from "@/lib/testing/http";
import { unsetEnvAfterEach } from "@/lib/testing/env";
import { POST as signIn } from "@/app/v1/sessions/route";
import { DELETE as signOut, GET as whoAmI } from "@/app/v1/sessions/current/route";

// The CSRF check compares the whole origin, scheme, host and port, with or without APP_ORIGIN
// (docs/security.md, Sessions and cross-site requests). Before, without APP_ORIGIN only the host was
// compared, so a page at https://host could change things on the service at http://host (and the reverse).

unsetEnvAfterEach("APP_ORIGIN", "COOKIE_SECURE", "TRUST_PROXY");

function configure(settings: Record<string, string>) {
  Object.assign(process.env, settings);
  resetEnv();
}

/** A POST as server.mjs hands it to a route: request.url is Next.js's own (its scheme from any X-Forwarded-Proto), Host the client's. */
function post(headers: Record<string, string>, url = "http://localhost:3000/v1/test") {
  return new Request(url, { method: "POST", headers: { host: "localhost:3000", ...headers } });
}

const allowed = (headers: Record<string, string>, url?: string) =>
  isSameOrigin(post(headers, url), { requireProof: true });

describe("isSameOrigin without APP_ORIGIN: the request's own origin, scheme included", () => {
  it("an http service (COOKIE_SECURE unset) takes its own http origin only", () => {
    expect(allowed({ origin: "http://localhost:3000" })).toBe(true);
    expect(allowed({ origin: "HTTP://LOCALHOST:3000" })).toBe(true);
    for (const origin of [
      "https://localhost:3000",
      "http://localhost:3001",
      "http://localhost",
      "https://localhost",
      "http://localhost:3000.evil.example",
      "http://evil.example",
      "null",
      "localhost:3000",
      "",
    ]) {
      expect(allowed({ origin }), JSON.stringify(origin)).toBe(false);
    }
  });

  it("an https service (COOKIE_SECURE=true, served through a TLS proxy) takes its own https origin only", () => {
    configure({ COOKIE_SECURE: "true" });
    expect(allowed({ origin: "https://localhost:3000" })).toBe(true);
    expect(allowed({ origin: "http://localhost:3000" })).toBe(false);
  });

  it("default ports are the same origin written either way", () => {
    expect(allowed({ host: "compliance.example.com", origin: "http://compliance.example.com" })).toBe(true);
    expect(allowed({ host: "compliance.example.com:80", origin: "http://compliance.example.com" })).toBe(true);
    configure({ COOKIE_SECURE: "true" });
    expect(allowed({ host: "compliance.example.com", origin: "https://compliance.example.com:443" })).toBe(true);
    expect(allowed({ host: "compliance.example.com:8443", origin: "https://compliance.example.com" })).toBe(false);
  });

  it("the scheme of request.url decides nothing: Next.js takes it from a client's X-Forwarded-Proto", () => {
    expect(allowed({ origin: "https://localhost:3000" }, "https://localhost:3000/v1/test")).toBe(false);
    expect(
      allowed({ origin: "https://localhost:3000", "x-forwarded-proto": "https" }, "https://localhost:3000/v1/test"),
    ).toBe(false);
    expect(allowed({ origin: "http://localhost:3000" }, "https://localhost:3000/v1/test")).toBe(true);
  });

  it("behind a trusted proxy (TRUST_PROXY), its X-Forwarded-Proto and X-Forwarded-Host name the origin", () => {
    configure({ TRUST_PROXY: "1" });
    expect(allowed({ origin: "https://localhost:3000", "x-forwarded-proto": "https" })).toBe(true);
    expect(allowed({ origin: "http://localhost:3000", "x-forwarded-proto": "https" })).toBe(false);
    expect(
      allowed({
        origin: "https://app.example.com",
        "x-forwarded-proto": "https",
        "x-forwarded-host": "app.example.com",
      }),
    ).toBe(true);
    expect(
      allowed({
        origin: "http://app.example.com",
        "x-forwarded-proto": "https",
        "x-forwarded-host": "app.example.com",
      }),
    ).toBe(false);
  });

  it("Sec-Fetch-Site from another site is refused whatever Origin says; same-origin still needs a matching Origin when one is sent", () => {
    expect(allowed({ "sec-fetch-site": "cross-site", origin: "http://localhost:3000" })).toBe(false);
    expect(allowed({ "sec-fetch-site": "same-site", origin: "http://localhost:3000" })).toBe(false);
    expect(allowed({ "sec-fetch-site": "same-origin", origin: "https://localhost:3000" })).toBe(false);
    expect(allowed({ "sec-fetch-site": "same-origin", origin: "http://localhost:3000" })).toBe(true);
    expect(allowed({ "sec-fetch-site": "same-origin" })).toBe(true);
  });

  it("with neither header: refused where proof is required, allowed where not (non-browser sign-in)", () => {
    expect(allowed({})).toBe(false);
    expect(isSameOrigin(post({}), { requireProof: false })).toBe(true);
    expect(isSameOrigin(post({ origin: "https://localhost:3000" }), { requireProof: false })).toBe(false);
  });
});

describe("isSameOrigin with APP_ORIGIN: that origin exactly", () => {
  it("another scheme or port of APP_ORIGIN's host is refused", () => {
    configure({ APP_ORIGIN: "https://compliance.example.com" });
    const at = (origin: string) => allowed({ host: "compliance.example.com", origin });
    expect(at("https://compliance.example.com")).toBe(true);
    expect(at("https://compliance.example.com:443")).toBe(true);
    expect(at("http://compliance.example.com")).toBe(false);
    expect(at("https://compliance.example.com:8443")).toBe(false);
    expect(at("https://evil.example")).toBe(false);
  });
});

describe("through the route wrapper: 403 for another scheme, and nothing happens", () => {
  it("a cookie-authenticated sign-out from https://host against the http service", async () => {
    const { session } = await signedInEmployee();
    const refused = await call(signOut, {
      method: "DELETE",
      session,
      headers: { origin: ORIGIN.replace("http:", "https:") },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error_code: "err_forbidden" });
    expect((await call(whoAmI, { session })).status).toBe(200);
    expect((await call(signOut, { method: "DELETE", session })).status).toBe(200);
  });

  it("the reverse: from http://host against the https service (COOKIE_SECURE=true)", async () => {
    configure({ COOKIE_SECURE: "true" });
    const { session } = await signedInEmployee();
    expect((await call(signOut, { method: "DELETE", session, headers: { origin: ORIGIN } })).status).toBe(403);
    expect((await call(whoAmI, { session })).status).toBe(200);
    expect(
      (await call(signOut, { method: "DELETE", session, headers: { origin: ORIGIN.replace("http:", "https:") } }))
        .status,
    ).toBe(200);
  });

  it("sign-in (public) from another scheme is refused before the password is looked at", async () => {
    const { email } = await signedInEmployee();
    const body = { email, password: "not the password at all" };
    const refused = await call(signIn, {
      method: "POST",
      body,
      headers: { origin: ORIGIN.replace("http:", "https:") },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error_code: "err_forbidden", message: "Cross-site request refused" });
    expect((await call(signIn, { method: "POST", body, headers: { origin: ORIGIN } })).status).toBe(401);
  });
});
