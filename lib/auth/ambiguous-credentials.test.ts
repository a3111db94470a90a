import { describe, expect, it } from "vitest";
import { resetEnv } from "@/lib/env";
import { SESSION_COOKIE } from "@/lib/auth/sessions";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, ORIGIN } from "@/lib/testing/http";
import { unsetEnvAfterEach } from "@/lib/testing/env";
import { GET as listApiKeys } from "@/app/v1/api_keys/route";
import { DELETE as signOut, GET as whoAmI } from "@/app/v1/sessions/current/route";

// What the route handlers see: a WHATWG Headers object, which joins repeated header lines with ", ".
// server.mjs refuses the same requests from the raw header lines before any route runs
// (e2e/edge.spec.ts); these hold the routes to it on their own.
describe("ambiguous credentials answer 400 err_bad_request", () => {
  it("two Authorization headers (joined), even when both carry the same valid key", async () => {
    const { apiKey } = await platformWithKey();
    expect((await call(listApiKeys, { apiKey })).status).toBe(200);
    for (const authorization of [
      `Bearer ${apiKey}, Bearer svc_other`,
      `Bearer ${apiKey}, Bearer ${apiKey}`,
      `Bearer svc_other, Bearer ${apiKey}`,
    ]) {
      const response = await call(listApiKeys, { headers: { authorization } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error_code: "err_bad_request",
        message: "Send one Authorization header, not several",
        http_code: 400,
        request_id: response.headers.get("x-request-id"),
      });
    }
  });

  it("two session cookies, joined either way, in either order, whatever else comes with them", async () => {
    const { session } = await signedInEmployee();
    const other = await signedInEmployee();
    expect((await call(whoAmI, { session })).status).toBe(200);
    for (const cookie of [
      `${SESSION_COOKIE}=${session}; ${SESSION_COOKIE}=${other.session}`,
      `${SESSION_COOKIE}=planted; theme=dark; ${SESSION_COOKIE}=${session}`,
      `${SESSION_COOKIE}=${session}, ${SESSION_COOKIE}=${session}`,
      `${SESSION_COOKIE}=${session};${SESSION_COOKIE}=`,
    ]) {
      const response = await call(whoAmI, { headers: { cookie } });
      expect(response.status, cookie).toBe(400);
      expect(response.body).toEqual({
        error_code: "err_bad_request",
        message: `Send one ${SESSION_COOKIE} cookie, not several`,
        http_code: 400,
        request_id: response.headers.get("x-request-id"),
      });
    }
    // A bearer key next to two session cookies is no less ambiguous.
    const { apiKey } = await platformWithKey();
    const withKey = await call(listApiKeys, {
      apiKey,
      headers: { cookie: `${SESSION_COOKIE}=${session}; ${SESSION_COOKIE}=${other.session}` },
    });
    expect(withKey.status).toBe(400);
  });

  it("one session cookie among other cookies still works", async () => {
    const { session } = await signedInEmployee();
    const response = await call(whoAmI, {
      headers: { cookie: `theme=dark; ${SESSION_COOKIE}=${session}; x${SESSION_COOKIE}=other` },
    });
    expect(response.status).toBe(200);
  });
});

describe("with APP_ORIGIN set it is the only origin a cookie-authenticated change may come from", () => {
  unsetEnvAfterEach("APP_ORIGIN");

  it("an Origin that merely matches the Host header is refused; APP_ORIGIN's is accepted", async () => {
    process.env.APP_ORIGIN = "https://compliance.example.com";
    resetEnv();
    const { session } = await signedInEmployee();
    // The test requests reach the handler with Host localhost:3000, and ORIGIN is that address.
    const hostOnly = await call(signOut, { method: "DELETE", session, headers: { origin: ORIGIN } });
    expect(hostOnly.status).toBe(403);
    expect((await call(whoAmI, { session })).status).toBe(200);
    const configured = await call(signOut, {
      method: "DELETE",
      session,
      headers: { origin: "https://compliance.example.com" },
    });
    expect(configured.status).toBe(200);
  });
});
