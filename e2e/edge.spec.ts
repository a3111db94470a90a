import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { Socket } from "node:net";
import { expect, httpRequest as jsonRequest, startServer, test, type Server } from "./fixtures";

type Reply = { status: number; headers: IncomingHttpHeaders; body: string };

/**
 * One raw HTTP/1.1 request to a real server, header lines exactly as given (`headers` in the
 * [name, value, name, value] form of req.rawHeaders, so a name can repeat). fetch and Playwright's
 * request context cannot send TRACE or CONNECT, nor repeat Authorization.
 */
function send(baseURL: string, method: string, path: string, headers: string[] = []): Promise<Reply> {
  const url = new URL(baseURL);
  return new Promise((resolve, reject) => {
    // Node adds no Host line to an array of headers: the test's own, or the server's address.
    const hostGiven = headers.some((name, i) => i % 2 === 0 && name.toLowerCase() === "host");
    const lines = [...(hostGiven ? [] : ["Host", url.host]), ...headers, "Connection", "close"];
    const request = httpRequest({ host: url.hostname, port: url.port, method, path, headers: lines });
    const read = (stream: NodeJS.ReadableStream, status: number, replyHeaders: IncomingHttpHeaders, head = "") => {
      let body = head;
      stream.on("data", (chunk: Buffer) => (body += chunk.toString()));
      stream.on("end", () => resolve({ status, headers: replyHeaders, body }));
      stream.on("error", reject);
    };
    request.on("response", (response) => read(response, response.statusCode!, response.headers));
    // CONNECT's reply arrives as a tunnel: the body is what follows the head on the socket.
    request.on("connect", (response, socket: Socket, head: Buffer) =>
      read(socket, response.statusCode!, response.headers, head.toString()),
    );
    request.on("error", reject);
    request.end();
  });
}

const sessionCookie = async (context: { cookies: () => Promise<Array<{ name: string; value: string }>> }) =>
  (await context.cookies()).find((cookie) => cookie.name === "pmc_session")!.value;

/** What the server logged while `work` ran (it logs errors with ⨯ or a stack). */
async function logDuring(server: Server, work: () => Promise<void>) {
  const before = server.output().length;
  await work();
  await new Promise((resolve) => setTimeout(resolve, 300));
  return server.output().slice(before);
}

test.describe("methods outside GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS", () => {
  // Before: TRACE was a bare 500 "Internal Server Error" with a stack trace in the log, CONNECT
  // dropped the connection, an unknown token got Node's bodiless 400.
  test("answer 405 in the contract's shape with Allow and the security headers, on the API and pages, and log nothing", async ({
    server,
  }) => {
    const replies: Array<[string, string, Reply]> = [];
    const log = await logDuring(server, async () => {
      for (const method of ["TRACE", "CONNECT", "PROPFIND", "TRACK", "FOO"]) {
        for (const path of ["/v1/api_keys", "/login", "/healthz"]) {
          replies.push([
            method,
            path,
            await send(server.baseURL, method, method === "CONNECT" ? "127.0.0.1:443" : path),
          ]);
          if (method === "CONNECT") break;
        }
      }
    });
    for (const [method, path, reply] of replies) {
      const what = `${method} ${path}`;
      expect(reply.status, what).toBe(405);
      expect(reply.headers.allow, what).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
      expect(reply.headers["content-type"], what).toBe("application/json; charset=utf-8");
      expect(reply.headers["x-content-type-options"], what).toBe("nosniff");
      expect(reply.headers["x-frame-options"], what).toBe("DENY");
      expect(reply.headers["content-security-policy"], what).toContain("frame-ancestors 'none'");
      expect(reply.headers["x-request-id"], what).toMatch(/^req_/);
      expect(JSON.parse(reply.body), what).toEqual({
        error_code: "err_method_not_allowed",
        message: expect.stringContaining("is not supported; use GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"),
        http_code: 405,
        request_id: reply.headers["x-request-id"],
      });
    }
    expect(log).not.toMatch(/⨯|Error|unsupported|\n\s+at /);
    // The server is unharmed.
    expect((await send(server.baseURL, "GET", "/healthz")).status).toBe(200);
  });
});

// The fourth outside attack: server.mjs wrote its own id into the request's X-Request-Id, so every audit
// record carried a client id the client never sent, and a 500's header named another id than its body.
test("request ids: one server id in the header, the error body and the audit record; a client's own is echoed and kept apart", async ({
  page,
  employee,
}) => {
  const missing = "/v1/employees/emp_doesnotexist000000000";
  const plain = await page.request.get(missing);
  expect(plain.status()).toBe(404);
  const serverId = plain.headers()["x-request-id"]!;
  expect(serverId).toMatch(/^req_[0-9a-f]{24}$/);
  expect(((await plain.json()) as { request_id: string }).request_id).toBe(serverId);

  const own = await page.request.get(missing, { headers: { "X-Request-Id": "client/chosen-1" } });
  expect(own.headers()["x-request-id"]).toBe("client/chosen-1");
  const ownId = ((await own.json()) as { request_id: string }).request_id;
  expect(ownId).toMatch(/^req_[0-9a-f]{24}$/);

  const listed = await page.request.get(`/v1/audit_events?actorId=${employee.id}&limit=50`);
  expect(listed.status()).toBe(200);
  const events = ((await listed.json()) as { items: { requestId: string; clientRequestId: string | null }[] }).items;
  expect(events.find((event) => event.requestId === serverId)).toMatchObject({ clientRequestId: null });
  expect(events.find((event) => event.requestId === ownId)).toMatchObject({ clientRequestId: "client/chosen-1" });
});

test.describe("ambiguous credentials against the real server (two header lines, as sent on the wire)", () => {
  test("two Authorization headers answer 400, where Node alone would have used the first", async ({ server }) => {
    const one = await send(server.baseURL, "GET", "/v1/api_keys", ["Authorization", "Bearer svc_not_a_key"]);
    expect(one.status).toBe(401);
    for (const path of ["/v1/api_keys", "/v1/sessions/current", "/information-requests"]) {
      const two = await send(server.baseURL, "GET", path, [
        "Authorization",
        "Bearer svc_not_a_key",
        "Authorization",
        "Bearer svc_another",
      ]);
      expect(two.status, path).toBe(400);
      expect(JSON.parse(two.body), path).toEqual({
        error_code: "err_bad_request",
        message: "Send one Authorization header, not several",
        http_code: 400,
        request_id: two.headers["x-request-id"],
      });
      expect(two.headers["x-frame-options"]).toBe("DENY");
    }
  });

  test("two session cookies answer 400 on the API and pages, in one Cookie line or two, even when the first is valid", async ({
    server,
    page,
  }) => {
    const session = await sessionCookie(page.context());
    const alone = await send(server.baseURL, "GET", "/v1/sessions/current", ["Cookie", `pmc_session=${session}`]);
    expect(alone.status).toBe(200);
    const ambiguous = [
      ["Cookie", `pmc_session=${session}`, "Cookie", "pmc_session=planted"],
      ["Cookie", `pmc_session=${session}; pmc_session=planted`],
      ["Cookie", `theme=dark; pmc_session=planted`, "Cookie", `pmc_session=${session}`],
    ];
    for (const headers of ambiguous) {
      for (const path of ["/v1/sessions/current", "/information-requests"]) {
        const reply = await send(server.baseURL, "GET", path, headers);
        expect(reply.status, `${path} ${headers.join(" ")}`).toBe(400);
        expect(JSON.parse(reply.body)).toEqual({
          error_code: "err_bad_request",
          message: "Send one pmc_session cookie, not several",
          http_code: 400,
          request_id: reply.headers["x-request-id"],
        });
      }
    }
  });
});

test("with APP_ORIGIN set, other Hosts answer 400 on pages, the API and static files; /healthz answers any Host", async () => {
  const server = await startServer({ APP_ORIGIN: "https://compliance.example.com" });
  try {
    const own = ["Host", "compliance.example.com"];
    const page = await send(server.baseURL, "GET", "/setup", own);
    expect(page.status).toBe(200);
    const asset = /src="(\/_next\/static\/[^"]+\.js)"/.exec(page.body)![1]!;
    for (const path of ["/v1/openapi.json", asset])
      expect((await send(server.baseURL, "GET", path, own)).status, path).toBe(200);
    expect((await send(server.baseURL, "GET", "/setup", ["Host", "compliance.example.com:443"])).status).toBe(200);

    for (const host of [
      "127.0.0.1",
      new URL(server.baseURL).host,
      "evil.example",
      "compliance.example.com.evil.example",
      "compliance.example.com:8443",
    ]) {
      for (const path of ["/setup", "/", "/v1/openapi.json", "/v1/setup", asset, "/no-such-page"]) {
        const reply = await send(server.baseURL, "GET", path, ["Host", host]);
        expect(reply.status, `${host} ${path}`).toBe(400);
        expect(JSON.parse(reply.body)).toEqual({
          error_code: "err_bad_request",
          message: "Unknown host: this service answers only at its configured origin (APP_ORIGIN)",
          http_code: 400,
          request_id: reply.headers["x-request-id"],
        });
        expect(reply.headers["x-content-type-options"]).toBe("nosniff");
      }
      // Load balancers probe instances by address.
      expect((await send(server.baseURL, "GET", "/healthz", ["Host", host])).status).toBe(200);
    }
    // Without TRUST_PROXY, X-Forwarded-Host is the client's word and changes nothing.
    expect(
      (
        await send(server.baseURL, "GET", "/setup", [
          "Host",
          "evil.example",
          "X-Forwarded-Host",
          "compliance.example.com",
        ])
      ).status,
    ).toBe(400);
  } finally {
    await server.stop();
  }
});

test("answers are compressed for a client that accepts an encoding, and sent as they are to one that does not", async ({
  server,
}) => {
  const page = await send(server.baseURL, "GET", "/login");
  expect(page.status).toBe(200);
  const asset = /src="(\/_next\/static\/[^"]+\.js)"/.exec(page.body)![1]!;
  for (const path of ["/login", asset, "/v1/openapi.json"]) {
    const plain = await send(server.baseURL, "GET", path);
    expect(plain.status, path).toBe(200);
    expect(plain.headers["content-encoding"], path).toBeUndefined();
    const gzipped = await send(server.baseURL, "GET", path, ["Accept-Encoding", "gzip"]);
    expect(gzipped.status, path).toBe(200);
    expect(gzipped.headers["content-encoding"], path).toBe("gzip");
    expect(gzipped.headers.vary, path).toMatch(/Accept-Encoding/);
    // The security headers are on both.
    expect(gzipped.headers["x-content-type-options"], path).toBe("nosniff");
  }
});

test.describe("prototype keys in a query string, against the real server", () => {
  // Next.js's router copies the query into a plain object, where __proto__ sets the object's
  // prototype instead of a key, and builds the route handler's URL from it: the route never saw it.
  test("__proto__ answers 422 like constructor and prototype, with a key or without credentials, and logs nothing", async ({
    server,
  }) => {
    const message = "is not accepted as a key (__proto__, constructor, prototype never are)";
    const log = await logDuring(server, async () => {
      expect((await server.inviter.get("/v1/employees?limit=5")).status()).toBe(200);
      for (const [query, key] of [
        ["__proto__=1", "__proto__"],
        ["limit=5&__proto__=x", "__proto__"],
        ["__proto__", "__proto__"],
        ["constructor=1", "constructor"],
        ["prototype=", "prototype"],
      ] as const) {
        const answer = await server.inviter.get(`/v1/employees?${query}`);
        expect(answer.status(), query).toBe(422);
        expect(await answer.json(), query).toEqual({
          error_code: "err_validation",
          message: `${key}: ${message}`,
          http_code: 422,
          details: { [key]: message },
          request_id: answer.headers()["x-request-id"],
        });
      }
      // As sent on the wire, percent-encoded, to a public route and with no credentials at all.
      for (const path of ["/v1/openapi.json?%5F%5Fproto%5F%5F=1", "/v1/api_keys?__proto__=1"]) {
        const reply = await send(server.baseURL, "GET", path);
        expect(reply.status, path).toBe(422);
        expect(JSON.parse(reply.body).details, path).toEqual({ ["__proto__"]: message });
        expect(reply.headers["x-content-type-options"]).toBe("nosniff");
      }
      expect((await send(server.baseURL, "GET", "/v1/openapi.json?proto=1&x=__proto__")).status).toBe(200);
    });
    expect(log).not.toMatch(/⨯|Error|\n\s+at /);
  });
});

test.describe("the CSRF check compares the whole origin (scheme, host and port) against the real server", () => {
  test("without APP_ORIGIN, a cookie-authenticated change from https://<its host> is refused 403 by the http server", async ({
    server,
    page,
  }) => {
    const session = await sessionCookie(page.context());
    const host = new URL(server.baseURL).host;
    const signOut = (origin: string, extra: string[] = []) =>
      send(server.baseURL, "DELETE", "/v1/sessions/current", [
        "Cookie",
        `pmc_session=${session}`,
        "Origin",
        origin,
        ...extra,
      ]);
    for (const [origin, extra] of [
      [`https://${host}`, []],
      [`http://${new URL(server.baseURL).hostname}:1`, []],
      // Next.js builds request.url's scheme from X-Forwarded-Proto, which any client may send (TRUST_PROXY is off).
      [`https://${host}`, ["X-Forwarded-Proto", "https"]],
      [`https://${host}`, ["Sec-Fetch-Site", "same-origin"]],
    ] as const) {
      const refused = await signOut(origin, [...extra]);
      expect(refused.status, `${origin} ${extra.join(" ")}`).toBe(403);
      expect(JSON.parse(refused.body)).toMatchObject({ error_code: "err_forbidden", http_code: 403 });
    }
    expect(
      (await send(server.baseURL, "GET", "/v1/sessions/current", ["Cookie", `pmc_session=${session}`])).status,
    ).toBe(200);
    expect((await signOut(server.baseURL)).status).toBe(200);
    expect(
      (await send(server.baseURL, "GET", "/v1/sessions/current", ["Cookie", `pmc_session=${session}`])).status,
    ).toBe(401);
  });

  test("the reverse: a server reached over https (COOKIE_SECURE=true) refuses an http Origin of its own host", async () => {
    const secure = await startServer({ COOKIE_SECURE: "true" });
    try {
      const host = new URL(secure.baseURL).host;
      const signIn = (origin: string) =>
        jsonRequest(`${secure.baseURL}/v1/sessions`, {
          method: "POST",
          headers: { origin },
          body: { email: "nobody@acme.example", password: "not a password at all" },
        });
      const refused = await signIn(`http://${host}`);
      expect(refused.status).toBe(403);
      expect(refused.json()).toEqual({
        error_code: "err_forbidden",
        message: "Cross-site request refused",
        http_code: 403,
        request_id: refused.headers["x-request-id"],
      });
      // Its own https origin gets as far as the credentials.
      expect((await signIn(`https://${host}`)).status).toBe(401);
    } finally {
      await secure.stop();
    }
  });
});
