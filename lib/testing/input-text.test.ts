// Strings and map keys as clients send them: control characters and ill-formed Unicode are refused
// with 422 by one shared schema (lib/contract/text.ts) wherever a string comes in, tab and line feed
// only in free text; __proto__, constructor and prototype are never accepted as map keys.
import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldValues, Resolver } from "react-hook-form";
import { describe, expect, it } from "vitest";
import { POST as updateAccount } from "@/app/v1/accounts/[accountId]/route";
import { GET as listAuditEvents } from "@/app/v1/audit_events/route";
import { GET as listDelegatedUsers, POST as createDelegatedUser } from "@/app/v1/delegated_users/route";
import { GET as readFlags, POST as updateFlags } from "@/app/v1/feature_flags/route";
import { POST as moveRequest } from "@/app/v1/information_requests/[id]/status/route";
import { GET as listRecipients } from "@/app/v1/recipients/route";
import { POST as createRecipient } from "@/app/v1/sandbox/recipients/route";
import { featureFlagsInput } from "@/lib/accounts/schemas";
import { db } from "@/lib/db";
import { signInInput } from "@/lib/employees/schemas";
import { updateProfileInput } from "@/lib/kyc/schemas";
import { allEndpoints } from "@/lib/endpoints";
import type { ErrorBody } from "@/lib/contract/error-codes";
import type { Handler } from "@/lib/http/route";
import { raiseInformationRequest } from "@/lib/information-requests/information-requests";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { everyRoute, ghostParams, pathFor } from "@/lib/testing/routes";
import { stringFields } from "@/lib/testing/string-fields";
import { withScope } from "@/lib/tenancy";

const CONTROL_MESSAGE =
  /^must not contain control characters( other than tab and line feed)? \(found U\+[0-9A-F]{4}\)$/;
const SURROGATE_MESSAGE = "must be well-formed Unicode (it holds a lone surrogate)";
const KEY_MESSAGE = "is not accepted as a key (__proto__, constructor, prototype never are)";
const BIDI_MESSAGE = /^must not contain bidirectional control characters \(found U\+(202[A-E]|206[6-9])\)$/;
const SEPARATOR_MESSAGE = /^must not contain line or paragraph separators \(found U\+202[89]\)$/;

/** Fields a person writes in a text area: tab and line feed allowed. */
const FREE_TEXT = new Set([
  "POST /v1/information_requests/{id}/status body.reason",
  "POST /v1/information_requests/{id}/notes body.body",
  "POST /v1/information_requests/bulk body.reason",
]);

function expectValidationError(
  response: { status: number; body: Partial<ErrorBody> | null },
  field: string,
  message: string | RegExp,
) {
  expect(response.status, JSON.stringify(response.body)).toBe(422);
  expect(Object.keys(response.body ?? {})).toEqual(["error_code", "message", "http_code", "details", "request_id"]);
  expect(response.body?.error_code).toBe("err_validation");
  expect(response.body?.http_code).toBe(422);
  expect(Object.keys(response.body?.details ?? {})).toContain(field);
  expect(response.body?.details?.[field]).toMatch(message);
}

/** Each GET of `path` by `handler` is 422 naming `field` with `message`. */
/** A test: the `accepted` query answers 200, and each of `refused` answers 422 naming its field and `message`. */
function itRefusesQueries(
  title: string,
  message: string | RegExp,
  accepted: [handler: Handler, path: string],
  refused: [handler: Handler, path: string, field: string][],
) {
  it(title, async () => {
    const { apiKey } = await platformWithKey();
    for (const [handler, path, field] of refused)
      expectValidationError(await call(handler, { apiKey, path }), field, message);
    expect((await call(accepted[0], { apiKey, path: accepted[1] })).status).toBe(200);
  });
}

describe("every string a client sends goes through the shared text schema", () => {
  const fields = allEndpoints.flatMap((endpoint) =>
    (["params", "query", "body"] as const).flatMap((where) =>
      stringFields(endpoint[where]).map((field) => ({
        ...field,
        name: `${endpoint.method} ${endpoint.path} ${[where, ...field.path].join(".")}`,
      })),
    ),
  );
  const messagesFor = (field: (typeof fields)[number], value: string) => {
    const result = field.schema.safeParse(value);
    return result.success ? [] : result.error!.issues.map((issue) => issue.message);
  };

  it("finds the string fields (the walk itself works)", () => {
    const names = fields.map((field) => field.name);
    expect(names).toContain("POST /v1/sandbox/recipients body.name");
    expect(names).toContain("POST /v1/api_keys body.cidrAllowlist.0");
    expect(names).toContain("POST /v1/kyc/update_profile body.address.line1");
    expect(names).toContain("GET /v1/delegated_users query.externalId");
    expect(names).toContain("DELETE /v1/recipients/{id} params.id");
    expect(fields.length).toBeGreaterThan(50);
  });

  it("each refuses C0 and C1 controls, DEL and lone surrogates; only free text takes tab and line feed, bidirectional controls and line separators", () => {
    const problems: string[] = [];
    for (const field of fields) {
      // A format (e-mail, date-time) has a pattern of its own that admits none of these.
      const refuses = (value: string, message: string | RegExp) => {
        const messages = messagesFor(field, value);
        const ok = field.format
          ? messages.length > 0
          : messages.some((text) => (typeof message === "string" ? text === message : message.test(text)));
        if (!ok) problems.push(`${field.name} took ${JSON.stringify(value)} (${JSON.stringify(messages)})`);
      };
      for (const value of ["a\u0000b", "\u001B[31m", "a\u007F", "a\u0085", "a\u009B", "a\rb"])
        refuses(value, CONTROL_MESSAGE);
      for (const value of ["\uD800", "a\uDFFF", "\uDE00\uD83D"]) refuses(value, SURROGATE_MESSAGE);
      // Single-line text refuses bidirectional controls and line separators; free text keeps them.
      for (const [value, message] of [
        ["invoice\u202Efdp.exe", BIDI_MESSAGE],
        ["\u202Aa", BIDI_MESSAGE],
        ["a\u202B", BIDI_MESSAGE],
        ["a\u202Cb", BIDI_MESSAGE],
        ["a\u202Db", BIDI_MESSAGE],
        ["a\u2066b\u2069", BIDI_MESSAGE],
        ["a\u2067b", BIDI_MESSAGE],
        ["a\u2068b", BIDI_MESSAGE],
        ["a\u2028b", SEPARATOR_MESSAGE],
        ["a\u2029b", SEPARATOR_MESSAGE],
      ] as const) {
        if (!FREE_TEXT.has(field.name)) refuses(value, message);
        else if (messagesFor(field, value).length)
          problems.push(`free text ${field.name} refused ${JSON.stringify(value)}: ${messagesFor(field, value)}`);
      }
      for (const value of ["a\nb", "a\tb"]) {
        const messages = messagesFor(field, value);
        const refusedAsControl = messages.some((text) => CONTROL_MESSAGE.test(text));
        if (FREE_TEXT.has(field.name) && messages.length)
          problems.push(`free text ${field.name} refused ${JSON.stringify(value)}: ${messages}`);
        if (!FREE_TEXT.has(field.name) && !field.format && !refusedAsControl)
          problems.push(`${field.name} took ${JSON.stringify(value)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("the free-text fields exist", () => {
    for (const name of FREE_TEXT) expect(fields.map((field) => field.name)).toContain(name);
  });
});

describe("control characters and lone surrogates over HTTP: 422 naming the field, nothing written", () => {
  it("in a body field", async () => {
    const { apiKey, account } = await platformWithKey();
    const count = () => db().recipient.count({ where: { accountId: account.id } });
    for (const [name, message] of [
      ["Acme\u0000", CONTROL_MESSAGE],
      ["Acme\u0085Corp", CONTROL_MESSAGE],
      ["\u001B[2JAcme", CONTROL_MESSAGE],
      ["Acme\nCorp", CONTROL_MESSAGE],
      ["Acme\uD800", SURROGATE_MESSAGE],
    ] as const) {
      expectValidationError(await call(createRecipient, { method: "POST", apiKey, body: { name } }), "name", message);
    }
    // The lone surrogate as JSON's own escape, which JSON.parse turns into one.
    expectValidationError(
      await call(createRecipient, { method: "POST", apiKey, rawBody: '{"name":"x\\udc00y"}' }),
      "name",
      SURROGATE_MESSAGE,
    );
    expect(await count()).toBe(0);
    expect((await call(createRecipient, { method: "POST", apiKey, body: { name: "Acme 😀 Zoë" } })).status).toBe(201);
  });

  itRefusesQueries(
    "in a query parameter",
    CONTROL_MESSAGE,
    [listDelegatedUsers, "/v1/delegated_users?externalId=user-1"],
    [
      [listDelegatedUsers, "/v1/delegated_users?externalId=user%001", "externalId"],
      [listAuditEvents, "/v1/audit_events?action=%1B%5B31m", "action"],
      [listAuditEvents, "/v1/audit_events?actorId=key_%C2%85", "actorId"],
    ],
  );

  it("a decision's reason is free text: tab and line feed kept, carriage return refused", async () => {
    const staff = await signedInEmployee();
    const scope = { platformId: staff.account.id, accountId: staff.account.id };
    const request = await withScope(scope, () => raiseInformationRequest({ kind: "due_diligence" }));
    const move = (reason: string) =>
      call(moveRequest, {
        method: "POST",
        session: staff.session,
        params: { id: request.id },
        body: { status: "expired", reasonCode: "other", reason },
      });
    expectValidationError(
      await move("No reply.\r\nClosed."),
      "reason",
      /other than tab and line feed \(found U\+000D\)/,
    );
    expectValidationError(await move("No reply.\u0000"), "reason", /U\+0000/);
    expect((await db().informationRequest.findUniqueOrThrow({ where: { id: request.id } })).status).toBe("requested");
    const reason = "No reply by the deadline.\n\tChecked twice.";
    const moved = await move(reason);
    expect(moved.status).toBe(200);
    expect(moved.body.decisionReason).toBe(reason);
  });

  it("bidirectional controls and line separators in a name: 422 naming the character, nothing written; free text keeps them", async () => {
    const { apiKey, account } = await platformWithKey();
    for (const [name, message] of [
      ["Acme\u202Eexe.pdf", /found U\+202E\)$/],
      ["\u2067Acme\u2069", /found U\+2067\)$/],
      ["Acme\u2028Corp", /^must not contain line or paragraph separators \(found U\+2028\)$/],
      ["Acme\u2029", /found U\+2029\)$/],
    ] as const) {
      expectValidationError(await call(createRecipient, { method: "POST", apiKey, body: { name } }), "name", message);
    }
    // JSON's own escape arrives as the same character.
    expectValidationError(
      await call(createRecipient, { method: "POST", apiKey, rawBody: '{"name":"a\\u202ab"}' }),
      "name",
      BIDI_MESSAGE,
    );
    expect(await db().recipient.count({ where: { accountId: account.id } })).toBe(0);
    expect((await call(createRecipient, { method: "POST", apiKey, body: { name: "שלום Acme مرحبا" } })).status).toBe(
      201,
    );

    const staff = await signedInEmployee();
    const scope = { platformId: staff.account.id, accountId: staff.account.id };
    const request = await withScope(scope, () => raiseInformationRequest({ kind: "due_diligence" }));
    const reason = "\u2067שלום\u2069 did not reply.\u2028Closed.";
    const moved = await call(moveRequest, {
      method: "POST",
      session: staff.session,
      params: { id: request.id },
      body: { status: "expired", reasonCode: "other", reason },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.decisionReason).toBe(reason);
  });

  itRefusesQueries(
    "bidirectional controls in a query parameter",
    BIDI_MESSAGE,
    [listDelegatedUsers, "/v1/delegated_users?externalId=user-1"],
    [
      [listDelegatedUsers, "/v1/delegated_users?externalId=user%E2%80%AE1", "externalId"],
      [listAuditEvents, "/v1/audit_events?action=%E2%81%A6x", "action"],
    ],
  );

  it("a name with a line break is refused: only free text may hold one", async () => {
    const { apiKey } = await platformWithKey();
    expectValidationError(
      await call(createDelegatedUser, { method: "POST", apiKey, body: { externalId: "user\n2" } }),
      "externalId",
      /U\+000A/,
    );
  });
});

describe("a body that is not UTF-8: 400 err_bad_request, never stored as U+FFFD", () => {
  const UTF8_MESSAGE = "The body is not valid UTF-8";
  const bytes = (...parts: (string | number[])[]) =>
    Uint8Array.from(parts.flatMap((part) => (typeof part === "string" ? [...Buffer.from(part)] : part)));

  it("in a name: each kind of broken sequence is refused and nothing is written; UTF-8 split anywhere is fine", async () => {
    const { apiKey, account } = await platformWithKey();
    for (const [what, bad] of [
      ["a lone continuation byte", [0x80]],
      ["Latin-1 é", [0xe9]],
      ["a cut-off sequence", [0xe2, 0x82]],
      ["an overlong slash", [0xc0, 0xaf]],
      ["an encoded surrogate", [0xed, 0xa0, 0x80]],
      ["beyond U+10FFFF", [0xf4, 0x90, 0x80, 0x80]],
      ["0xFF", [0xff]],
    ] as const) {
      const response = await call(createRecipient, {
        method: "POST",
        apiKey,
        rawBytes: bytes('{"name":"Acme', [...bad], '"}'),
      });
      expect(response.status, what).toBe(400);
      expect(response.body, what).toEqual({
        error_code: "err_bad_request",
        message: UTF8_MESSAGE,
        http_code: 400,
        request_id: expect.stringMatching(/^req_[0-9a-f]{24}$/),
      });
    }
    // A UTF-16 body (with its byte order mark) is not UTF-8 either.
    const utf16 = Uint8Array.from([0xff, 0xfe, ...Buffer.from('{"name":"Acme"}', "utf16le")]);
    expect((await call(createRecipient, { method: "POST", apiKey, rawBytes: utf16 })).body).toMatchObject({
      error_code: "err_bad_request",
      message: UTF8_MESSAGE,
    });
    expect(await db().recipient.count({ where: { accountId: account.id } })).toBe(0);
    const created = await call(createRecipient, {
      method: "POST",
      apiKey,
      rawBytes: bytes('{"name":"Zo', [0xc3, 0xab], " \u00e9 ", [0xf0, 0x9f, 0x98, 0x80], '"}'),
    });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe("Zoë é 😀");
  });

  it("every endpoint that reads a body refuses one that is not UTF-8", async () => {
    const { session } = await signedInEmployee();
    const refused: string[] = [];
    for (const { endpoint, handler } of await everyRoute()) {
      // An upload's parts are bytes, not JSON text (its route refuses a JSON body with 415).
      if (!endpoint.body || endpoint.multipart) continue;
      const response = await call(handler, {
        method: endpoint.method,
        path: pathFor(endpoint, ghostParams(endpoint)),
        params: ghostParams(endpoint),
        session: endpoint.auth === "public" ? undefined : session,
        rawBytes: bytes('{"name":"', [0xc3, 0x28], '"}'),
      });
      if (response.status !== 400 || response.body?.message !== UTF8_MESSAGE)
        refused.push(`${endpoint.method} ${endpoint.path}: ${response.status} ${JSON.stringify(response.body)}`);
      else refused.push("ok");
    }
    expect(refused.filter((line) => line !== "ok")).toEqual([]);
    expect(refused.length).toBeGreaterThan(20);
  });
});

describe("map keys: __proto__, constructor and prototype answer 422", () => {
  const storedFlags = async (id: string) => (await db().account.findUniqueOrThrow({ where: { id } })).featureFlags;

  it("POST /v1/feature_flags with a __proto__ key (as JSON.parse makes it: an own property)", async () => {
    const { apiKey, account } = await platformWithKey();
    const response = await call(updateFlags, { method: "POST", apiKey, rawBody: '{"__proto__":{"named":"forbid"}}' });
    expectValidationError(response, "__proto__", KEY_MESSAGE);
    expect(response.body.message).toBe(`__proto__: ${KEY_MESSAGE}`);
    expect(await storedFlags(account.id)).toEqual({});
    expect((await call(readFlags, { apiKey })).body).toEqual({});
    expect(({} as Record<string, unknown>).named).toBeUndefined();
  });

  it("constructor and prototype, beside a valid flag, which is not stored either", async () => {
    const { apiKey, account } = await platformWithKey();
    for (const key of ["constructor", "prototype", "__proto__"]) {
      const response = await call(updateFlags, {
        method: "POST",
        apiKey,
        rawBody: `{"named":"prefer",${JSON.stringify(key)}:"require"}`,
      });
      expectValidationError(response, key, key === "__proto__" ? KEY_MESSAGE : /./);
    }
    expect(await storedFlags(account.id)).toEqual({});
  });

  it("POST /v1/accounts/{accountId} with featureFlags.__proto__", async () => {
    const { apiKey, account } = await platformWithKey();
    const response = await call(updateAccount, {
      method: "POST",
      apiKey,
      params: { accountId: account.id },
      rawBody: '{"featureFlags":{"partner":"prefer","__proto__":{"partner":"require"}}}',
    });
    expectValidationError(response, "featureFlags.__proto__", KEY_MESSAGE);
    expect(await storedFlags(account.id)).toEqual({});
  });

  // Checked on the parsed body and query as a whole (lib/http/route.ts), not only where a schema has a map.
  it("anywhere in a body: a key zod would otherwise drop unseen", async () => {
    const { apiKey, account } = await platformWithKey();
    for (const [rawBody, field] of [
      ['{"name":"Acme","__proto__":{"isAdmin":true}}', "__proto__"],
      ['{"name":"Acme","extra":{"list":[{"constructor":{"prototype":{"polluted":1}}}]}}', "extra.list.0.constructor"],
      ['{"name":"Acme","prototype":1}', "prototype"],
    ] as const) {
      expectValidationError(await call(createRecipient, { method: "POST", apiKey, rawBody }), field, KEY_MESSAGE);
    }
    expect(await db().recipient.count({ where: { accountId: account.id } })).toBe(0);
  });

  itRefusesQueries(
    "in a query string, on a route with a query schema or without one",
    KEY_MESSAGE,
    [listRecipients, "/v1/recipients?limit=5&proto=1"],
    [
      [listRecipients, "/v1/recipients?__proto__=1", "__proto__"],
      [listRecipients, "/v1/recipients?limit=5&constructor=x", "constructor"],
      [readFlags, "/v1/feature_flags?prototype", "prototype"],
    ],
  );
});

describe("the dashboard's forms (react-hook-form + zodResolver on the same schemas)", () => {
  const resolve = async (schema: Parameters<typeof zodResolver>[0], values: FieldValues) => {
    const resolver: Resolver<FieldValues, unknown, unknown> = zodResolver(schema);
    const { values: resolved, errors } = await resolver(values, undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    });
    /** The message at a dotted path of the field errors, as the form shows it. */
    const message = (path: string) =>
      path.split(".").reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], errors) as
        { message?: string } | undefined;
    return { values: resolved, errors, messageAt: (path: string) => message(path)?.message };
  };

  it("show the new message on the field, and take what they took before", async () => {
    const refused = await resolve(signInInput, { email: "ada@example.com\u0000", password: "secret" });
    expect(refused.messageAt("email")).toBe("must not contain control characters (found U+0000)");
    const fine = await resolve(signInInput, { email: "ada@example.com", password: "secret", totpCode: "" });
    expect(fine.errors).toEqual({});
    const profile = await resolve(updateProfileInput, {
      address: { line1: "Main St 1\u0085", city: "Berlin", postalCode: "10115", country: "de" },
    });
    expect(profile.messageAt("address.line1")).toMatch(/U\+0085/);
  });

  it("the feature-flag form resolves as before (the prototype-key guard changes neither values nor messages)", async () => {
    expect((await resolve(featureFlagsInput, { named: "prefer", partner: undefined })).values).toEqual({
      named: "prefer",
    });
    expect((await resolve(featureFlagsInput, { named: "sometimes" })).messageAt("named")).toBe(
      "must be one of require, prefer, discourage, forbid",
    );
  });
});
