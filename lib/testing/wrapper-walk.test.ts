// The wrapper walk: what lib/http/route.ts does for every endpoint, asserted once per endpoint from
// its definition instead of once per route test: 401 without a credential, 405 with Allow for the
// methods a route file does not serve, the paging parameters' bounds and cursors,
// Service-Account-Id naming an account the caller may not act for, a body that is not a JSON object
// (or over 1 MiB), sandbox routes when SANDBOX=off, and the rate-limit fields on every answer to a key. The route tests keep what is
// particular to their route.
import { beforeAll, describe, expect, it } from "vitest";
import { createSubAccount } from "@/lib/accounts/accounts";
import { DEFAULT_KEY_PERMISSIONS } from "@/lib/auth/permissions";
import { resetEnv } from "@/lib/env";
import type { ErrorBody } from "@/lib/contract/error-codes";
import { encodeCursor } from "@/lib/contract/pagination";
import type { Endpoint, Method } from "@/lib/contract/endpoint";
import type { Handler } from "@/lib/http/route";
import { withScope } from "@/lib/tenancy";
import { apiKeyFor, platformWithKey, signedInEmployee, UNHURRIED } from "@/lib/testing/factories";
import { call, type Call, expectError } from "@/lib/testing/http";
import { everyRoute, ghostParams, pathFor, routeModuleFor } from "@/lib/testing/routes";
import { unsetEnvAfterEach } from "@/lib/testing/env";

const routes = await everyRoute();
const name = (endpoint: Endpoint) => `${endpoint.method} ${endpoint.path}`;
const guarded = routes.filter(({ endpoint }) => endpoint.auth !== "public");

/** Calls an endpoint's handler at its own path, with ghost path parameters unless given. */
function send({ endpoint, handler }: { endpoint: Endpoint; handler: Handler }, options: Call = {}) {
  const params = options.params ?? ghostParams(endpoint);
  return call<ErrorBody>(handler, {
    method: endpoint.method,
    params,
    ...options,
    path: options.path ?? pathFor(endpoint, params),
  });
}

let platform: { apiKey: string; accountId: string };
let session = "";
let otherPlatform: { accountId: string; subAccountId: string };
let subAccountKey = "";

beforeAll(async () => {
  const mine = await platformWithKey({ rateLimit: UNHURRIED });
  platform = { apiKey: mine.apiKey, accountId: mine.account.id };
  session = (await signedInEmployee({ platform: mine.account })).session;
  const mySub = await withScope(mine.scope, () =>
    createSubAccount({ name: "Walk sub-account", parentId: mine.account.id }),
  );
  subAccountKey = (await apiKeyFor(mySub.id, { rateLimit: UNHURRIED })).secret;
  const theirs = await platformWithKey();
  const theirSub = await withScope(theirs.scope, () =>
    createSubAccount({ name: "Their sub-account", parentId: theirs.account.id }),
  );
  otherPlatform = { accountId: theirs.account.id, subAccountId: theirSub.id };
});

/** The platform's own credential for an endpoint: its key, or an owner's session where no key may call it. */
const credentialFor = (endpoint: Endpoint): Call =>
  endpoint.auth === "session" || (endpoint.permission && !DEFAULT_KEY_PERMISSIONS.includes(endpoint.permission))
    ? { session }
    : { apiKey: platform.apiKey };

describe("401 err_unauthenticated without a credential", () => {
  for (const route of guarded) {
    it(name(route.endpoint), async () => {
      const response = await send(route);
      expectError(response, 401, "err_unauthenticated");
    });
  }
});

const ALL_METHODS: Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const paths = [...new Set(routes.map(({ endpoint }) => endpoint.path))];

describe("405 err_method_not_allowed with Allow for each method a route file does not serve; OPTIONS answers 204 with Allow", () => {
  for (const apiPath of paths) {
    const served = routes.filter(({ endpoint }) => endpoint.path === apiPath).map(({ endpoint }) => endpoint.method);
    const allow = [...ALL_METHODS.filter((method) => served.includes(method)), "OPTIONS"].join(", ");
    it(`${apiPath} (Allow: ${allow})`, async () => {
      const routeModule = await routeModuleFor(apiPath);
      for (const method of ALL_METHODS.filter((each) => !served.includes(each))) {
        const handler = routeModule[method];
        if (!handler) throw new Error(`${apiPath} exports no ${method}`);
        const response = await call<ErrorBody>(handler, {
          method,
          path: apiPath,
          apiKey: platform.apiKey,
          body: method === "GET" ? undefined : {},
        });
        expect(response.status, method).toBe(405);
        expect(response.body?.error_code, method).toBe("err_method_not_allowed");
        expect(response.headers.get("allow"), method).toBe(allow);
      }
      const options = routeModule.OPTIONS;
      if (!options) throw new Error(`${apiPath} exports no OPTIONS`);
      const response = await call(options, { method: "OPTIONS", path: apiPath });
      expect(response.status).toBe(204);
      expect(response.headers.get("allow")).toBe(allow);
    });
  }
});

const paged = routes.filter(({ endpoint }) => {
  const shape = endpoint.query?.shape ?? {};
  return "limit" in shape && "order" in shape && "next" in shape;
});

describe("paging: limit and order out of bounds are 422 err_validation naming the parameter", () => {
  it("finds the paged lists", () => expect(paged.length).toBeGreaterThan(8));
  for (const route of paged) {
    it(name(route.endpoint), async () => {
      const cases: [Record<string, string>, string][] = [
        [{ limit: "0" }, "limit"],
        [{ limit: "101" }, "limit"],
        [{ limit: "1000" }, "limit"],
        [{ limit: "x" }, "limit"],
        [{ limit: "two" }, "limit"],
        [{ limit: "ten" }, "limit"],
        [{ limit: "2.5" }, "limit"],
        [{ order: "sideways" }, "order"],
        [{ order: "newest" }, "order"],
        [{ order: "oldest" }, "order"],
      ];
      for (const [query, field] of cases) {
        const params = ghostParams(route.endpoint);
        const response = await send(route, {
          ...credentialFor(route.endpoint),
          params,
          path: `${pathFor(route.endpoint, params)}?${new URLSearchParams(query)}`,
        });
        expect(response.status, JSON.stringify(query)).toBe(422);
        expect(response.body?.error_code).toBe("err_validation");
        expect(Object.keys(response.body?.details ?? {}), JSON.stringify(query)).toEqual([field]);
      }
    });
  }
});

// A list under a path parameter answers 404 for a ghost parent before it reads the cursor, so the
// cursor is walked on the top-level lists; the nested ones test theirs with a real parent.
const topLevelPaged = paged.filter(({ endpoint }) => !endpoint.params);

describe("paging: limit 1 and 100 are served; a cursor the API did not issue, or one for the other order, is 400 err_bad_request", () => {
  for (const route of topLevelPaged) {
    it(name(route.endpoint), async () => {
      const list = (query: Record<string, string>) =>
        send(route, { ...credentialFor(route.endpoint), path: `${route.endpoint.path}?${new URLSearchParams(query)}` });
      for (const limit of ["1", "100"]) expect((await list({ limit })).status, `limit ${limit}`).toBe(200);
      const forged = [
        "garbage!",
        "bogus",
        "bogus!",
        "not-a-cursor",
        "Z2FyYmFnZQ",
        Buffer.from('["not a date","x","desc"]').toString("base64url"),
      ];
      for (const next of forged) {
        const response = await list({ next });
        expect(response.status, next).toBe(400);
        expect(response.body, next).toEqual(
          expect.objectContaining({ error_code: "err_bad_request", details: { next: "invalid cursor" } }),
        );
      }
      const ascending = encodeCursor({ createdAt: new Date(), id: "x_walk", order: "asc" });
      const mismatched: Record<string, string>[] = [{ next: ascending }, { next: ascending, order: "desc" }];
      for (const query of mismatched) {
        const response = await list(query);
        expect(response.status).toBe(400);
        expect(response.body).toEqual(
          expect.objectContaining({ error_code: "err_bad_request", details: { next: "order mismatch" } }),
        );
      }
    });
  }
});

describe("Service-Account-Id naming an account the caller may not act for: 404 err_not_found", () => {
  for (const route of guarded) {
    it(name(route.endpoint), async () => {
      const foreign = [otherPlatform.accountId, otherPlatform.subAccountId, "acct_doesnotexist", "nonsense"];
      for (const account of foreign) {
        const response = await send(route, {
          ...credentialFor(route.endpoint),
          headers: { "service-account-id": account },
          body: route.endpoint.method === "GET" ? undefined : {},
        });
        expect(response.status, account).toBe(404);
        expect(response.body?.error_code, account).toBe("err_not_found");
      }
      // A sub-account's key acts for its own account only; platform-wide routes refuse it outright (403).
      if (route.endpoint.auth === "any" && !route.endpoint.platformWide && credentialFor(route.endpoint).apiKey) {
        for (const account of [platform.accountId, otherPlatform.accountId]) {
          const response = await send(route, {
            apiKey: subAccountKey,
            headers: { "service-account-id": account },
            body: route.endpoint.method === "GET" ? undefined : {},
          });
          expect(response.status, account).toBe(404);
          expect(response.body?.error_code, account).toBe("err_not_found");
        }
      }
    });
  }
});

describe("every answer to a known key carries RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers-11)", () => {
  // A throwaway platform's key, on every guarded route (session-only ones refuse it with 403, and say so too).
  let key = "";
  beforeAll(async () => {
    key = (await platformWithKey({ rateLimit: { requests: 100_000, perSeconds: 3600 } })).apiKey;
  });
  for (const route of guarded) {
    it(name(route.endpoint), async () => {
      const response = await send(route, { apiKey: key, body: route.endpoint.method === "GET" ? undefined : {} });
      expect(response.headers.get("ratelimit-policy")).toBe('"key";q=100000;w=3600');
      expect(response.headers.get("ratelimit")).toMatch(/^"key";r=\d+;t=\d+$/);
      expect(response.headers.get("retry-after")).toBeNull();
    });
  }
});

const withBody = routes.filter(({ endpoint }) => endpoint.body && !endpoint.multipart);
const uploads = routes.filter(({ endpoint }) => endpoint.multipart);

describe("a body that is not a JSON object, not JSON, not sent as JSON or over 1 MiB: 400 err_bad_request", () => {
  it("finds the routes that take a body", () => expect(withBody.length).toBeGreaterThan(20));
  for (const route of withBody) {
    it(name(route.endpoint), async () => {
      const credential = route.endpoint.auth === "public" ? {} : credentialFor(route.endpoint);
      const cases: Call[] = [
        ...["[]", "[1]", "[1,2]", '["name"]', '"text"', "42", "null", "{", "{not json", "amount=5"].map((rawBody) => ({
          rawBody,
        })),
        { rawBody: "a=b", headers: { "content-type": "application/x-www-form-urlencoded" } },
      ];
      for (const each of cases) {
        const response = await send(route, { ...credential, ...each });
        expect(response.status, each.rawBody).toBe(400);
        expect(response.body, each.rawBody).toEqual(
          expect.objectContaining({ error_code: "err_bad_request", http_code: 400 }),
        );
      }
      // Bytes, not characters: 400,000 euro signs are 1.2 MB of UTF-8.
      const large = await send(route, { ...credential, rawBody: JSON.stringify({ padding: "€".repeat(400_000) }) });
      expectError(large, 400, "err_bad_request");
      expect(large.body?.message).toMatch(/1 MiB/);
    });
  }
});

describe("an upload (multipart) route sent anything but multipart/form-data: 415; an unreadable one 400; too large 413", () => {
  it("finds the upload routes", () => expect(uploads.length).toBeGreaterThan(0));
  for (const route of uploads) {
    it(name(route.endpoint), async () => {
      const credential = credentialFor(route.endpoint);
      for (const each of [{ rawBody: "{}" }, { rawBody: "a=b", headers: { "content-type": "text/plain" } }, {}]) {
        expectError(await send(route, { ...credential, ...each }), 415, "err_unsupported_media_type");
      }
      const multipart = { "content-type": "multipart/form-data; boundary=walk" };
      expectError(await send(route, { ...credential, rawBody: "{}", headers: multipart }), 400, "err_bad_request");
      const tooLarge = String(route.endpoint.multipart!.maxFileBytes + 1024 * 1024);
      expectError(
        await send(route, { ...credential, rawBody: "{}", headers: { ...multipart, "content-length": tooLarge } }),
        413,
        "err_payload_too_large",
      );
    });
  }
});

describe("a sandbox route when SANDBOX=off: 404 err_not_found, like an unknown route", () => {
  unsetEnvAfterEach("SANDBOX");
  const sandbox = routes.filter(({ endpoint }) => endpoint.sandbox);
  it("finds the sandbox routes", () => expect(sandbox.length).toBeGreaterThan(5));
  for (const route of sandbox) {
    it(name(route.endpoint), async () => {
      process.env.SANDBOX = "off";
      resetEnv();
      const response = await send(route, { ...credentialFor(route.endpoint), body: {} });
      expectError(response, 404, "err_not_found");
      expect(response.body?.message).toContain("No route /v1/sandbox/");
    });
  }
});
