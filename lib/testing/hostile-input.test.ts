// Property-based fuzzing of every /v1 endpoint with random and hostile input. Whatever arrives, the
// answer is a success or a contract-shaped 4xx (never a 5xx, a stack trace or SQL), and a refused
// request leaves the database as it was, except for the audit trail and the throttling counters.
// Control characters and lone surrogates in a string field (and in single-line fields bidirectional
// controls and line separators), and __proto__/constructor/prototype as a key anywhere in a body or
// query, are always refused with 422.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { databaseProvider } from "@/lib/env";
import { DEFAULT_KEY_PERMISSIONS } from "@/lib/auth/permissions";
import { pathOf, type Endpoint } from "@/lib/contract/endpoint";
import type { Handler } from "@/lib/http/route";
import { createSession, resolveSession } from "@/lib/auth/sessions";
import { revokeApiKey } from "@/lib/api-keys/api-keys";
import { createDelegatedUser } from "@/lib/delegated-users/delegated-users";
import { recordAuditEvent } from "@/lib/audit/trail";
import { withScope } from "@/lib/tenancy";
import { apiKeyFor, inDays, PASSWORD, platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { Authenticator, call, type Call } from "@/lib/testing/http";
import { everyRoute, pathFor } from "@/lib/testing/routes";
import { stringFields, valueAt } from "@/lib/testing/string-fields";
import { POST as inviteEmployee } from "@/app/v1/employees/route";
import { POST as createDelegatedUserRoute } from "@/app/v1/delegated_users/route";
import { POST as raiseInformationRequest } from "@/app/v1/sandbox/information_requests/route";
import { POST as createSandboxSubmission } from "@/app/v1/sandbox/kyc/submissions/route";
import { POST as createSandboxTransfer } from "@/app/v1/sandbox/transfers/route";
import { POST as createSandboxRecipient } from "@/app/v1/sandbox/recipients/route";
import { POST as payIn } from "@/app/v1/sandbox/virtual_accounts/[idOrKey]/pay_in/route";
import { POST as createSandboxVirtualAccount } from "@/app/v1/sandbox/virtual_accounts/route";
import { POST as createSandboxAccount } from "@/app/v1/sandbox/accounts/route";

const routes = await everyRoute();

// --- The database digest ------------------------------------------------------------------------

/**
 * Tables a refused request may write to: the audit trail, the throttle counters, the keys' daily
 * request counts (flushed every few seconds) and the migrator's bookkeeping.
 */
const IGNORED_TABLES = new Set(["AuditEvent", "Throttle", "ApiKeyUsageDay", "_migrations"]);
/**
 * Columns that record use, not state. Employee.totpLastStep is the TOTP replay guard: the wrapper spends
 * a correct Service-Totp-Code before the handler runs, so a handler that then refuses (404 for an
 * unknown key, say) still leaves the step spent. Like a throttle counter, that is protection state.
 */
const IGNORED_COLUMNS: Record<string, string[]> = {
  Session: ["lastSeenAt"],
  ApiKey: ["lastUsedAt", "lastUsedIp", "lastUsedUserAgent"],
  Employee: ["totpLastStep"],
};

type Digest = Map<string, string[]>;

function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === "bigint") return `${item}n`;
    if (item instanceof Uint8Array) return `bytes:${Buffer.from(item).toString("hex")}`;
    if (item && typeof item === "object" && !Array.isArray(item) && !(item instanceof Date)) {
      return Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return item;
  });
}

async function digest(): Promise<Digest> {
  const tables = await db().$queryRawUnsafe<{ name: string }[]>(
    databaseProvider() === "postgresql"
      ? `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`
      : `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
  );
  const result: Digest = new Map();
  for (const { name } of tables) {
    if (IGNORED_TABLES.has(name)) continue;
    // Sorted here, not by the database: PostgreSQL has no rowid, and a digest is a set of rows.
    const rows = await db().$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM "${name}"`);
    const skip = IGNORED_COLUMNS[name] ?? [];
    result.set(
      name,
      rows
        .map((row) => stableJson(Object.fromEntries(Object.entries(row).filter(([column]) => !skip.includes(column)))))
        .sort(),
    );
  }
  return result;
}

const clip = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text);

/** What changed between two digests, for the failure message; empty when nothing did. */
function describeChanges(before: Digest, after: Digest): string[] {
  const changes: string[] = [];
  for (const table of new Set([...before.keys(), ...after.keys()])) {
    const old = before.get(table) ?? [];
    const now = after.get(table) ?? [];
    if (old.length === now.length && old.every((row, i) => row === now[i])) continue;
    const oldSet = new Set(old);
    const nowSet = new Set(now);
    const removed = old.filter((row) => !nowSet.has(row));
    const added = now.filter((row) => !oldSet.has(row));
    changes.push(
      `${table}: ${removed.length} row(s) gone or changed, ${added.length} new or changed` +
        removed
          .slice(0, 2)
          .map((row) => `\n  - ${clip(row)}`)
          .join("") +
        added
          .slice(0, 2)
          .map((row) => `\n  + ${clip(row)}`)
          .join(""),
    );
  }
  return changes;
}

// --- Hostile values -------------------------------------------------------------------------------

const ID_PREFIXES = [
  "acct_",
  "key_",
  "du_",
  "emp_",
  "txn_",
  "va_",
  "rcp_",
  "tr_",
  "ir_",
  "sub_",
  "ses_",
  "aud_",
  "svc_",
  "we_",
  "evt_",
  "doc_",
  "pk_",
];

const SQL = [
  "' OR 1=1 --",
  '"; DROP TABLE "ApiKey"; --',
  "1; DELETE FROM Account",
  "' UNION SELECT secretHash FROM ApiKey --",
  "%' OR '%'='",
  "') OR ('1'='1",
  "\\",
  "'",
  '"',
  "`",
  ";",
  "--",
  "/*",
  "%",
  "_",
];
const TRAVERSAL = [
  "../../etc/passwd",
  "..%2f..%2fetc%2fpasswd",
  "%2e%2e%2f",
  "..\\..\\windows\\win.ini",
  "/",
  "./",
  "%00",
  "%2F",
  "....//",
  "?x=1",
  "#frag",
];
const UNICODE = [
  "😀",
  "👩‍👩‍👧‍👦",
  "\u202Eevil\u202C",
  "\u200F\u200E",
  "\u0000",
  "a\u0000b",
  "\uD800",
  "\uDFFF",
  "x\uD83D",
  "\uFEFF",
  "Ω≈ç√",
  "ﷺ",
  "𝕏",
  "e\u0301\u0301\u0301",
  "\u2028\u2029",
  "İı",
  "\u0007",
  "a\u0008b",
  "\u001B[31mred",
  "\u007F",
  "\u0085",
  "x\u009By",
  "one\r\ntwo",
  "invoice\u2066\u202Eexe.pdf\u2069",
  "a\u2028b",
];
const ODD = [
  "",
  " ",
  "\t",
  "\n",
  "null",
  "undefined",
  "true",
  "0",
  "-1",
  "NaN",
  "[]",
  "{}",
  "[object Object]",
  "__proto__",
  "constructor",
  "prototype",
];
const FIXED = [...SQL, ...TRAVERSAL, ...UNICODE, ...ODD];

const loneSurrogates = fc.string({
  unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
  minLength: 1,
});
/** C0 controls, DEL and C1 controls: tab and line feed included (only free text may hold them). */
const controlCharacter = fc
  .oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }))
  .map((code) => String.fromCharCode(code));
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
/** Bidirectional controls and the line and paragraph separators: refused in single-line text, kept in free text. */
const bidiCharacter = fc.constantFrom(..."\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u2028\u2029");
/** A plausible value with one control character or lone surrogate put in somewhere. */
const tainted = (bad: fc.Arbitrary<string>) =>
  fc
    .tuple(
      fc.constantFrom(
        "Acme",
        "user-1",
        "10.0.0.0/8",
        "12.50",
        "EUR",
        "va_abc",
        "2026-11-01",
        "a@example.com",
        "123456",
        "",
      ),
      bad,
      fc.nat(),
    )
    .map(([text, char, at]) => text.slice(0, at % (text.length + 1)) + char + text.slice(at % (text.length + 1)));
const taintedString = tainted(fc.oneof(controlCharacter, loneSurrogate, bidiCharacter));
const hugeString = fc
  .tuple(fc.integer({ min: 10_000, max: 100_000 }), fc.constantFrom("a", "'", "😀", "0", "%", "\u0000", "é"))
  .map(([length, unit]) => unit.repeat(Math.ceil(length / unit.length)));
const wellFormedUnknownId = fc
  .tuple(fc.constantFrom(...ID_PREFIXES), fc.stringMatching(/^[a-z0-9]{1,64}$/))
  .map(([prefix, rest]) => prefix + rest);
const junkAfterPrefix = fc
  .tuple(
    fc.constantFrom(...ID_PREFIXES),
    fc.oneof(fc.constantFrom(...FIXED), fc.string({ unit: "binary", maxLength: 20 }), fc.constant("a".repeat(65))),
  )
  .map(([prefix, rest]) => prefix + rest);

const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...FIXED) },
  { weight: 3, arbitrary: junkAfterPrefix },
  { weight: 1, arbitrary: wellFormedUnknownId },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 1, arbitrary: loneSurrogates },
  { weight: 1, arbitrary: taintedString },
  { weight: 1, arbitrary: hugeString },
);

/** Header values must be ByteStrings without CR, LF or NUL; anything else would fail in `new Headers`, not in the API. */
const headerSafe = (text: string) => text.replace(/[^\t\x20-\x7e\x80-\xff]/g, "?");
const hostileHeader = hostileString.map(headerSafe);

/** encodeURIComponent throws on lone surrogates; a real client could never put one in a URL. */
const wellFormed = (text: string) =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");

const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, -0, 0, 1, -1, 5e-324, 1e21),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** `{"<key>":{"a":{"a":...}}}` as text: fast-check could not print so deep an object in a counterexample. */
const deepJson = (key: string, depth: number) =>
  `{${JSON.stringify(key)}:${'{"a":'.repeat(depth)}1${"}".repeat(depth + 1)}`;

// --- Objects that exist ---------------------------------------------------------------------------

type World = {
  apiKey: string;
  /** A key that only works from 10.0.0.0/8 and 2001:db8::/32, and a revoked one. */
  allowlistedKey: string;
  revokedKey: string;
  /** Key ids that must not be revoked or allowlisted: the callers' own. */
  ownKeyIds: Set<string>;
  session: string;
  authenticator: Authenticator;
  employeeId: string;
  employeeEmail: string;
  /** Real ids of both platforms (each caller sees one; the other's are "another tenant's" objects). */
  ids: string[];
  accountIds: string[];
  virtualAccountKeys: string[];
  invitationTokens: string[];
};

let world: World;
/** The digest of the database as the last request left it. */
let current: Digest;

/** Creates something through its route, as a client would: the created resource as the API answers it. */
async function create<E extends Endpoint>(
  apiKey: string,
  handler: Handler<E>,
  body: unknown,
  params: Record<string, string> = {},
) {
  const definition = handler.endpoint;
  if (!definition) throw new Error("seeding needs a wrapped route handler");
  const response = await call(handler, { method: "POST", path: pathOf(definition, params), apiKey, params, body });
  if (response.status !== 201)
    throw new Error(`seeding ${definition.path} answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body;
}

/** A little of everything in one platform, created through the sandbox and resource routes. */
async function seedPlatform(apiKey: string, accountId: string) {
  const ids: string[] = [];
  const sub = await create(apiKey, createSandboxAccount, { name: "Sub account" });
  const va = await create(apiKey, createSandboxVirtualAccount, {
    currency: "EUR",
    key: `customer-${accountId.slice(-6)}`,
  });
  const va2 = await create(apiKey, createSandboxVirtualAccount, { currency: "USDC" });
  const txn = await create(
    apiKey,
    payIn,
    { amount: "12.50", currency: "EUR", walletAddress: "0xabc" },
    { idOrKey: va.id },
  );
  ids.push(sub.id, va.id, va2.id, txn.id);
  const recipients = [];
  for (let i = 0; i < 4; i += 1)
    recipients.push(await create(apiKey, createSandboxRecipient, { name: `Recipient ${i}` }));
  const transfer = await create(apiKey, createSandboxTransfer, {
    recipientId: recipients[0]?.id,
    amount: "5",
    currency: "EUR",
  });
  const submission = await create(apiKey, createSandboxSubmission, {
    type: "business",
    beneficiaries: [{ type: "individual", country: "DE", roles: ["ubo"], shareSize: 50, name: "Owner" }],
  });
  ids.push(...recipients.map((recipient) => recipient.id), transfer.id, submission.id);
  for (const body of [
    { kind: "due_diligence", transferId: transfer.id },
    { kind: "endorsement", submissionId: submission.id },
    { kind: "due_diligence" },
    { kind: "endorsement" },
  ]) {
    ids.push((await create(apiKey, raiseInformationRequest, body)).id);
  }
  for (const externalId of ["user-1", "' OR 1=1 --"])
    ids.push((await create(apiKey, createDelegatedUserRoute, { externalId })).id);
  for (let i = 0; i < 2; i += 1) ids.push((await apiKeyFor(accountId, { name: `Spare ${i}` })).id);
  const tokens: string[] = [];
  for (let i = 0; i < 2; i += 1) {
    const invited = await create(apiKey, inviteEmployee, {
      name: `Invitee ${i}`,
      email: `invitee${i}.${accountId}@example.com`,
    });
    ids.push(invited.id);
    tokens.push(new URL(invited.invitationUrl).searchParams.get("token") ?? "");
  }
  return { ids, accountIds: [accountId, sub.id], virtualAccountKeys: [va.key, va2.key], tokens };
}

beforeAll(async () => {
  // Keys that may invite (employees:write), so the seeding and the fuzzing reach the employee routes.
  const keyCaller = await platformWithKey({ permissions: [...DEFAULT_KEY_PERMISSIONS, "employees:write"] });
  const staff = await signedInEmployee({ totp: true });
  const allowlisted = await platformWithKey({ cidrAllowlist: ["10.0.0.0/8", "2001:db8::/32"] });
  const revoked = await apiKeyFor(keyCaller.account.id, { name: "Revoked" });
  await withScope(keyCaller.scope, () => revokeApiKey({ keyId: revoked.id }));
  // The employee's platform is seeded with a key of its own, so the session stays untouched.
  const staffKey = await apiKeyFor(staff.account.id, {
    name: "Seeding",
    permissions: [...DEFAULT_KEY_PERMISSIONS, "employees:write"],
  });
  const a = await seedPlatform(keyCaller.apiKey, keyCaller.account.id);
  const b = await seedPlatform(staffKey.secret, staff.account.id);
  world = {
    apiKey: keyCaller.apiKey,
    allowlistedKey: allowlisted.apiKey,
    revokedKey: revoked.secret,
    ownKeyIds: new Set([keyCaller.key.id]),
    session: staff.session,
    authenticator: staff.authenticator!,
    employeeId: staff.employee.id,
    employeeEmail: staff.email,
    ids: [...a.ids, ...b.ids, ...a.accountIds, ...b.accountIds, staff.employee.id, staffKey.id],
    accountIds: [...a.accountIds, ...b.accountIds],
    virtualAccountKeys: [...a.virtualAccountKeys, ...b.virtualAccountKeys],
    invitationTokens: [...a.tokens, ...b.tokens],
  };
  current = await digest();
}, 60_000);

/**
 * Routes that never get the signed-in employee's own id: once the fuzz has made a second active owner
 * (an invitee accepts and is promoted), demoting or deactivating themselves is allowed, and every later
 * case needs their session as an owner's. A run that did it failed every case after it with 401.
 */
const SPARE_THE_EMPLOYEE = new Set(["POST /v1/employees/{id}", "DELETE /v1/employees/{id}"]);
/** Real ids a request of the endpoint may name: never the callers' own keys (revoked or allowlisted, they would refuse every later case). */
const usableIds = (endpoint?: Endpoint) =>
  world.ids.filter(
    (id) =>
      !world.ownKeyIds.has(id) &&
      !(id === world.employeeId && endpoint && SPARE_THE_EMPLOYEE.has(`${endpoint.method} ${endpoint.path}`)),
  );
const realId = () => fc.constantFrom(...usableIds());
/** Real ids of one type (of either platform), or any real id when none has the prefix. */
const realIdOf = (prefix: string) => {
  const matching = usableIds().filter((id) => id.startsWith(prefix));
  return matching.length ? fc.constantFrom(...matching) : realId();
};

// --- Per-field generators -------------------------------------------------------------------------

const b64url = (text: string) => Buffer.from(text).toString("base64url");

/** Values for a query parameter, by name: mostly valid ones (so filters and cursors run), then odd ones and hostile strings. */
function queryValue(name: string): fc.Arbitrary<string> {
  const numbers = fc.oneof(
    fc.constantFrom(
      "-1",
      "0",
      "101",
      "1e3",
      "1.5",
      "NaN",
      "Infinity",
      "-0",
      "0x10",
      "99999999999999999999999",
      " 5",
      "5abc",
      "1,2",
      "+7",
      "1e-7",
    ),
    fc.integer().map(String),
    fc.double().map(String),
  );
  const validCursors = fc.constantFrom(
    b64url(JSON.stringify(["2026-01-01T00:00:00.000Z", "x", "desc"])),
    b64url(JSON.stringify(["2099-01-01T00:00:00.000Z", "zzz", "desc"])),
    b64url(JSON.stringify(["2000-01-01T00:00:00.000Z", "a", "asc"])),
  );
  const badCursors = fc.oneof(
    fc.uint8Array({ maxLength: 60 }).map((bytes) => Buffer.from(bytes).toString("base64url")),
    fc.jsonValue({ maxDepth: 2 }).map((value) => b64url(JSON.stringify(value))),
    fc.constantFrom(
      b64url(JSON.stringify(["2026-01-01T00:00:00.000Z", "x", "sideways"])),
      b64url(JSON.stringify(["2026-13-45T00:00:00.000Z", "x", "asc"])),
      b64url(JSON.stringify(["2026-01-01T00:00:00.000Z", "a".repeat(65), "asc"])),
      b64url(JSON.stringify(["2026-01-01T00:00:00.000Z", "' OR 1=1 --", "desc"])),
      b64url(JSON.stringify(["+275760-09-13T00:00:00.000Z", "x", "desc"])),
      b64url(JSON.stringify({ createdAt: "2026-01-01T00:00:00.000Z", id: "x" })),
      b64url("not json"),
      "====",
      "a+b/c=",
      "x".repeat(513),
    ),
  );
  const validDates = fc.constantFrom(
    "2026-11-01",
    "2026-11-01T13:00:00Z",
    "1970-01-01",
    "2026-11-01T00:00:00.000Z",
    "2099-12-31",
    "2026-11-01T13:00:00+05:30",
  );
  const badDates = fc.constantFrom(
    "2026-13-45",
    "0000-00-00",
    "9999-12-31T99:99:99Z",
    "2026-02-30",
    "2026-11-01T13:00:00+25:00",
    "-271821-04-20",
    "+275760-09-13T00:00:00.000Z",
    "275760-09-14",
    "2026-11-01 13:00",
    "1e12",
  );
  const valid: Record<string, fc.Arbitrary<string>> = {
    limit: fc.constantFrom("1", "2", "20", "100"),
    next: validCursors,
    order: fc.constantFrom("asc", "desc"),
    startDate: validDates,
    endDate: validDates,
    kind: fc.constantFrom("due_diligence", "endorsement"),
    externalId: fc.constantFrom("user-1", "' OR 1=1 --", " user-1 ", "%", "_"),
    virtualAccountId: fc.oneof(
      realIdOf("va_"),
      wellFormedUnknownId.map((id) => `va_${id.split("_")[1]}`),
    ),
    walletAddress: fc.constantFrom("0xabc", "0x%", "a_b"),
    action: fc.constantFrom("api_key.issue", "sandbox.create_account", "%", "' OR 1=1 --"),
    actorId: fc.oneof(realId(), fc.constantFrom("%", "' OR 1=1 --")),
  };
  const odd: Record<string, fc.Arbitrary<string>> = {
    limit: numbers,
    next: badCursors,
    order: fc.constantFrom("ASC", "Desc", "sideways", "", "asc ", "desc\u0000", "asc,desc", "-1"),
    startDate: badDates,
    endDate: badDates,
    kind: fc.constantFrom("DUE_DILIGENCE", "", "due_diligence "),
    walletAddress: fc.constantFrom("a b", "a".repeat(257), ""),
  };
  const options: { weight: number; arbitrary: fc.Arbitrary<string> }[] = [{ weight: 1, arbitrary: hostileString }];
  if (valid[name]) options.push({ weight: 6, arbitrary: valid[name] });
  if (odd[name]) options.push({ weight: 2, arbitrary: odd[name] });
  return fc.oneof(...options);
}

const randomQueryKey = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "constructor",
    "prototype",
    "limit[]",
    "where",
    "orderBy",
    "take",
    "skip",
    "include",
    "select",
    "accountId",
    "platformId",
    "cursor",
    "",
  ),
  fc.string({ maxLength: 12 }),
);

/** A query string with the schema's keys (some), random keys, and sometimes raw, undecodable junk. */
function queryString(endpoint: Endpoint): fc.Arbitrary<string> {
  const keys = Object.keys(endpoint.query?.shape ?? {});
  const known = keys.length
    ? fc.record(Object.fromEntries(keys.map((key) => [key, queryValue(key)])), { requiredKeys: [] })
    : fc.constant({} as Record<string, string>);
  const extra = fc.array(fc.tuple(randomQueryKey, hostileString), { maxLength: 3 });
  const raw = fc.constantFrom(
    "",
    "",
    "",
    "&%zz=%E0%A4%A",
    "&&&==",
    "&limit=1&limit=2",
    "&next",
    "&=x",
    "&order=asc&order=",
    "&a=%00",
    "&%2e%2e=..",
  );
  return fc.tuple(known, extra, raw).map(([values, more, junk]) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(values)) if (value !== undefined) search.append(key, wellFormed(value));
    for (const [key, value] of more) search.append(wellFormed(key), wellFormed(value));
    const text = search.toString() + junk;
    return text ? `?${text.replace(/^&/, "")}` : "";
  });
}

const freshWord = fc.stringMatching(/^[a-z][a-z0-9]{3,12}$/);
const beneficiary = { type: "individual", country: "DE", roles: ["ubo"], shareSize: 50 };

/** Valid values for a body field, by name, so that handlers run and not only validation. */
function validValue(name: string): fc.Arbitrary<unknown> | undefined {
  const table: Record<string, () => fc.Arbitrary<unknown>> = {
    amount: () => fc.constantFrom("12.50", "0.00000001", "999999999999999.99999999", "00012.5", "1"),
    currency: () => fc.constantFrom("EUR", "USDC", "GBP"),
    expiresAt: () => fc.constantFrom(inDays(30), inDays(364), inDays(30).replace("Z", "+00:00")),
    cidrAllowlist: () =>
      fc.constantFrom(
        [],
        ["10.0.0.0/8"],
        ["::/0", "0.0.0.0/0"],
        ["::ffff:10.0.0.0/104"],
        ["127.0.0.1", "127.0.0.1/32"],
      ),
    name: () =>
      fc.oneof(
        fc.constantFrom("Acme", "Ada", "' OR 1=1 --", '"; DROP TABLE "ApiKey"; --', "😀", "\u202Eevil"),
        freshWord,
      ),
    accountName: () => fc.constantFrom("Acme", "' OR 1=1 --", "😀"),
    email: () =>
      fc.oneof(
        freshWord.map((word) => `${word}@example.com`),
        fc.constantFrom(world.employeeEmail, world.employeeEmail.toUpperCase()),
      ),
    password: () => fc.constant(PASSWORD),
    token: () => fc.constantFrom(...world.invitationTokens),
    code: () => fc.constantFrom("123456", "000000", " 123456 "),
    totpCode: () => fc.constantFrom("123456", "000000", "aaaa-bbbb-cccc"),
    recipientId: () =>
      fc.oneof(
        realIdOf("rcp_"),
        wellFormedUnknownId.map((id) => `rcp_${id.split("_")[1]}`),
      ),
    transferId: () =>
      fc.oneof(
        realIdOf("tr_"),
        wellFormedUnknownId.map((id) => `tr_${id.split("_")[1]}`),
      ),
    submissionId: () =>
      fc.oneof(
        realIdOf("sub_"),
        wellFormedUnknownId.map((id) => `sub_${id.split("_")[1]}`),
      ),
    documentSetId: () => fc.oneof(fc.constantFrom("ds-1", "ds:2"), freshWord),
    ipAddress: () => fc.constantFrom("203.0.113.7", "::ffff:10.0.0.1", "2001:db8::1", null),
    key: () => fc.oneof(fc.constantFrom("customer-42", ...world.virtualAccountKeys), freshWord),
    walletAddress: () => fc.constantFrom("0xabc", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"),
    dateOfBirth: () => fc.constantFrom("1990-01-01", "1900-01-01", "2000-02-29"),
    nationality: () => fc.constantFrom("DE", "de", "US"),
    country: () => fc.constantFrom("DE", "de", "US"),
    phone: () => fc.constantFrom("+4915112345678", "+12025550123"),
    shareSize: () => fc.constantFrom(0, 100, 33.33, 25),
    roles: () => fc.constantFrom(["ubo"], ["ubo", "director"], ["representative"]),
    beneficiaries: () =>
      fc.constantFrom(
        [beneficiary],
        [],
        [
          { ...beneficiary, name: "' OR 1=1 --" },
          { ...beneficiary, type: "business", roles: ["director"] },
        ],
      ),
    externalId: () => fc.oneof(fc.constantFrom("user-1", "' OR 1=1 --", " user-1 "), freshWord),
    featureFlags: () => fc.constantFrom({ named: "prefer" }, {}, { partner: "forbid", named: "require" }),
    status: () => fc.constantFrom("on_review", "approved", "rejected", "expired", "requested"),
    kind: () => fc.constantFrom("due_diligence", "endorsement"),
    type: () => fc.constantFrom("individual", "business"),
  };
  return table[name]?.();
}

/** Nearly valid values for a body field: the edges and the classic mistakes. */
function oddValue(name: string): fc.Arbitrary<unknown> | undefined {
  const table: Record<string, () => fc.Arbitrary<unknown>> = {
    amount: () =>
      fc.constantFrom(
        "0",
        "0.00",
        "1e3",
        "-5",
        "12.500000000",
        "0.000000001",
        "1000000000000000",
        12.5,
        " 12.50",
        "12,50",
      ),
    currency: () => fc.constantFrom("eur", "EURO12", "X", "€"),
    expiresAt: () =>
      fc.constantFrom(
        inDays(400),
        inDays(-1),
        new Date().toISOString(),
        "2026-13-45T00:00:00Z",
        "9999-12-31T99:99:99Z",
        "0000-00-00",
        "2026-11-01",
      ),
    cidrAllowlist: () =>
      fc.constantFrom(
        ["300.1.1.1/8"],
        ["10.0.0.0/33"],
        Array(101).fill("10.0.0.0/8"),
        ["10.0.0.0/8", 5],
        ["::1/129"],
        ["a".repeat(65)],
      ),
    name: () => fc.constantFrom("a".repeat(201), " ", ""),
    accountName: () => fc.constantFrom("a".repeat(201), " ", ""),
    email: () => fc.constantFrom("not-an-email", "a@b", ` ${"a".repeat(250)}@example.com`, "a@@example.com"),
    password: () => fc.constantFrom("short", "x".repeat(1025), ""),
    token: () => fc.constantFrom("x".repeat(201), ""),
    code: () => fc.constantFrom("12345", "1234567", "abcdef", "１２３４５６"),
    totpCode: () => fc.constantFrom("x".repeat(65), "", "12345"),
    documentSetId: () => fc.constantFrom("../x", "a".repeat(129), ""),
    ipAddress: () => fc.constantFrom("999.1.1.1", "::1%eth0", "1.2.3.4/24", "a".repeat(65), "01.02.03.04"),
    key: () => fc.constantFrom("va_abc", "va_", "a b", "a".repeat(129)),
    walletAddress: () => fc.constantFrom("a b", "a".repeat(257), ""),
    dateOfBirth: () =>
      fc.constantFrom(
        "1899-12-31",
        "2026-13-45",
        "0000-00-00",
        "2999-01-01",
        "1990-02-30",
        "1990-1-1",
        new Date().toISOString().slice(0, 10),
      ),
    nationality: () => fc.constantFrom("XX", "DEU", "ZZ", "  "),
    country: () => fc.constantFrom("XX", "DEU", "ZZ", "  "),
    phone: () => fc.constantFrom("+0123", "004915112345678", "+1234567890123456"),
    shareSize: () => fc.constantFrom(100.0000001, -0, 33.333333333, 1e308, -1, "50"),
    roles: () => fc.constantFrom(["ubo", "ubo"], [], ["UBO"]),
    beneficiaries: () =>
      fc.constantFrom(
        Array(51).fill(beneficiary),
        [
          { ...beneficiary, shareSize: 60 },
          { ...beneficiary, shareSize: 60 },
        ],
        [{ ...beneficiary, shareSize: 100.5 }],
      ),
    externalId: () => fc.constantFrom("a".repeat(256), " ", ""),
    featureFlags: () => fc.constantFrom({ named: "PREFER" }, { foo: "prefer" }, { named: null }, []),
  };
  return table[name]?.();
}

type ZodDef = {
  type: string;
  innerType?: unknown;
  in?: unknown;
  out?: unknown;
  shape?: Record<string, unknown>;
  element?: unknown;
  entries?: Record<string, unknown>;
  values?: unknown[];
};
const defOf = (schema: unknown): ZodDef | undefined => (schema as { _zod?: { def?: ZodDef } } | undefined)?._zod?.def;

/** Looks through optional, default, nullable and pipes (a `.transform()`, a preprocess) to the schema that sees the input. */
function unwrap(schema: unknown): unknown {
  let current = schema;
  for (let i = 0; i < 20; i += 1) {
    const def = defOf(current);
    if (!def) return current;
    if (def.type === "pipe") current = defOf(def.in)?.type === "transform" ? def.out : def.in;
    else if (def.innerType !== undefined) current = def.innerType;
    else return current;
  }
  return current;
}

/** A value for a schema: right shape with wrong or hostile leaves, wrong types, or plausible values. */
function valueFor(schema: unknown, name: string, depth: number): fc.Arbitrary<unknown> {
  const inner = unwrap(schema);
  const def = defOf(inner);
  const options: { weight: number; arbitrary: fc.Arbitrary<unknown> }[] = [
    { weight: 1, arbitrary: hostileString },
    { weight: 1, arbitrary: wrongType },
  ];
  const valid = validValue(name);
  const odd = oddValue(name);
  if (valid) options.push({ weight: 6, arbitrary: valid });
  if (odd) options.push({ weight: 2, arbitrary: odd });
  if (def?.type === "object" && depth < 4) options.push({ weight: 4, arbitrary: shapedObject(inner, depth + 1) });
  if (def?.type === "array" && depth < 4) {
    const element = valueFor(def.element, name, depth + 1);
    options.push(
      { weight: 2, arbitrary: fc.array(element, { maxLength: 3 }) },
      { weight: 1, arbitrary: fc.array(element, { minLength: 51, maxLength: 120 }) },
    );
  }
  if (def?.type === "enum" && def.entries) {
    const values = Object.values(def.entries).map(String);
    options.push(
      { weight: 4, arbitrary: fc.constantFrom(...values) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          ...values.map((value) => value.toUpperCase()),
          ...values.map((value) => ` ${value}`),
        ),
      },
    );
  }
  if (def?.type === "string" && !valid)
    options.push({ weight: 4, arbitrary: fc.oneof(fc.constantFrom(...FIXED), freshWord) });
  if (def?.type === "number" && !valid)
    options.push({
      weight: 2,
      arbitrary: fc.constantFrom(0, -1, 100, 100.5, 1e308, Number.MIN_VALUE, Number.MAX_SAFE_INTEGER),
    });
  return fc.oneof(...options);
}

const junkBodyKeys = fc.constantFrom(
  "id",
  "accountId",
  "platformId",
  "createdAt",
  "secretHash",
  "revokedAt",
  "status",
  "extra",
  "",
  " ",
  "a.b",
  "0",
);

/** An object with the schema's own keys (any subset), each given a hostile, wrongly typed or plausible value, plus junk keys. */
function shapedObject(schema: unknown, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const shape = defOf(unwrap(schema))?.shape ?? {};
  const fields = Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, valueFor(field, key, depth)]));
  // Usually every key (so required fields are there and values get judged), sometimes any subset.
  const known = Object.keys(shape).length
    ? fc.oneof(
        { weight: 3, arbitrary: fc.record(fields) },
        { weight: 1, arbitrary: fc.record(fields, { requiredKeys: [] }) },
      )
    : fc.constant({});
  const extra = fc.oneof(
    fc.constant({}),
    fc.constant({}),
    fc.dictionary(junkBodyKeys, fc.oneof(hostileString, wrongType), { maxKeys: 2 }),
  );
  return fc.tuple(known, extra).map(([own, more]) => ({ ...more, ...own }));
}

const MiB = 1024 * 1024;
const RAW_BODIES = [
  "",
  " ",
  "{",
  "}",
  "{'a':1}",
  '{"a":1,}',
  "[1,2",
  "nul",
  "undefined",
  "NaN",
  '{"a": NaN}',
  "\uFEFF{}",
  '\uFEFF{"name":"x"}',
  "null",
  "[]",
  "[{}]",
  "123",
  '"str"',
  "true",
  '{"a":"\\ud800"}',
  '{"name":"\\u0000"}',
  "\u0000",
  "{}{}",
  '{"a":1}garbage',
  '{"name":"a","name":123}',
  '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":1}},"name":"x"}',
  "[".repeat(10_000) + "]".repeat(10_000),
  '{"a":'.repeat(5_000) + "1" + "}".repeat(5_000),
  `{"name":"${"x".repeat(1.5 * MiB)}"}`,
  `${" ".repeat(1.5 * MiB)}{}`,
  `{"name":"${"é".repeat(MiB / 2 + 1)}"}`,
  `{"pad":"${"x".repeat(MiB - 11)}"}`,
];

/** A request body: nothing, random JSON, the schema's shape with hostile leaves, raw garbage text, deep nesting. */
function requestBody(endpoint: Endpoint): fc.Arbitrary<Pick<Call, "body" | "rawBody" | "rawBytes">> {
  const shaped = endpoint.body
    ? shapedObject(endpoint.body, 0)
    : fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant({}) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((body) => ({ body })) },
    { weight: 14, arbitrary: shaped.map((body) => ({ body })) },
    { weight: 3, arbitrary: fc.constantFrom(...RAW_BODIES).map((rawBody) => ({ rawBody })) },
    { weight: 1, arbitrary: shaped.map((body) => ({ rawBody: `\uFEFF${JSON.stringify(body)}` })) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 60 }).map((rawBody) => ({ rawBody })) },
    // Bytes that are not UTF-8 (a lone continuation byte, a cut-off sequence, an overlong form, a UTF-16 body).
    {
      weight: 1,
      arbitrary: fc.uint8Array({ maxLength: 40 }).map((bytes) => ({
        rawBytes: Uint8Array.from([...Buffer.from('{"name":"'), ...bytes, 0xff, ...Buffer.from('"}')]),
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom("x", ...Object.keys(defOf(unwrap(endpoint.body))?.shape ?? {})),
          fc.integer({ min: 1_000, max: 20_000 }),
        )
        .map(([key, depth]) => ({ rawBody: deepJson(key, depth) })),
    },
  );
}

// --- Callers, headers and the whole request ------------------------------------------------------

type Caller =
  "key" | "session" | "none" | "junkBearer" | "junkCookie" | "allowlistedKey" | "revokedKey" | "keyAndCookie";
type TotpChoice = "none" | "junk" | "wrong" | "valid";

type RequestSpec = {
  params: Record<string, string>;
  query: string;
  payload: Pick<Call, "body" | "rawBody" | "rawBytes">;
  caller: Caller;
  totp: TotpChoice;
  junkTotp: string;
  headers: Record<string, string>;
  ip: string;
};

function callerFor(endpoint: Endpoint): fc.Arbitrary<Caller> {
  const junk = [
    {
      weight: 1,
      arbitrary: fc.constantFrom<Caller>(
        "none",
        "junkBearer",
        "junkCookie",
        "allowlistedKey",
        "revokedKey",
        "keyAndCookie",
      ),
    },
  ];
  if (endpoint.auth === "public") return fc.oneof({ weight: 8, arbitrary: fc.constant<Caller>("none") }, ...junk);
  if (endpoint.auth === "session") {
    return fc.oneof(
      { weight: 8, arbitrary: fc.constant<Caller>("session") },
      { weight: 1, arbitrary: fc.constant<Caller>("key") },
      ...junk,
    );
  }
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant<Caller>("key") },
    { weight: 5, arbitrary: fc.constant<Caller>("session") },
    ...junk,
  );
}

/** Hostile strings, well-formed unknown ids, real ids of the param's type (either platform's) and, rarely, of another type. */
function paramValue(endpoint: Endpoint, name: string): fc.Arbitrary<string> {
  const schema = endpoint.params?.shape[name] as { safeParse(value: unknown): { success: boolean } } | undefined;
  // {idOrKey} takes any id-shaped text, so it gets virtual accounts' ids and keys in particular.
  const usable = usableIds(endpoint);
  const candidates =
    name === "idOrKey" ? [...usable.filter((id) => id.startsWith("va_")), ...world.virtualAccountKeys] : usable;
  const fitting = candidates.filter((id) => schema?.safeParse(id).success);
  const anyReal = fc.constantFrom(...usable);
  return fc.oneof(
    { weight: 3, arbitrary: hostileString },
    { weight: 6, arbitrary: fitting.length ? fc.constantFrom(...fitting) : anyReal },
    { weight: 1, arbitrary: anyReal },
    { weight: 1, arbitrary: wellFormedUnknownId },
  );
}

function requestSpec(endpoint: Endpoint): fc.Arbitrary<RequestSpec> {
  const paramNames = Object.keys(endpoint.params?.shape ?? {});
  const params = fc.record(
    Object.fromEntries(paramNames.map((name) => [name, paramValue(endpoint, name)])),
  ) as fc.Arbitrary<Record<string, string>>;
  const junkHeaders = {
    "service-account-id": fc.oneof(
      hostileHeader,
      fc.constantFrom(...world.accountIds),
      fc.constantFrom("", " ", "acct_", `acct_${"a".repeat(65)}`),
    ),
    "service-totp-code": hostileHeader,
    "content-type": fc.constantFrom(
      "text/plain",
      "application/json; charset=utf-16",
      "application/xml",
      "",
      "multipart/form-data; boundary=x",
      "application/x-www-form-urlencoded",
      "application/vnd.api+json",
      "APPLICATION/JSON",
      "application/jsonp",
      "json",
    ),
    "x-request-id": hostileHeader,
    "content-length": fc.constantFrom("99999999999", "-1", "abc", "0"),
    origin: fc.constantFrom(
      "https://evil.example",
      "null",
      "http://localhost:3000.evil.example",
      "http://localhost:3000",
    ),
    "sec-fetch-site": fc.constantFrom("cross-site", "same-origin", "none", "junk"),
    "x-forwarded-host": fc.constantFrom("evil.example", "localhost:3000"),
  };
  // Mostly none or one odd header, so most requests get past the header checks to the input checks.
  const headers = fc.oneof(
    { weight: 5, arbitrary: fc.constant({}) },
    {
      weight: 4,
      arbitrary: fc.oneof(
        ...Object.entries(junkHeaders).map(([name, value]) => value.map((text) => ({ [name]: text }))),
      ),
    },
    { weight: 1, arbitrary: fc.record(junkHeaders, { requiredKeys: [] }) },
  );
  return fc.record({
    params,
    query: endpoint.query ? queryString(endpoint) : fc.oneof(fc.constant(""), fc.constant(""), queryString(endpoint)),
    payload: endpoint.method === "GET" ? fc.constant({}) : requestBody(endpoint),
    caller: callerFor(endpoint),
    totp: fc.constantFrom<TotpChoice>("none", "junk", "wrong", "valid"),
    junkTotp: hostileHeader,
    headers,
    ip: fc.oneof(
      { weight: 4, arbitrary: fc.constant("127.0.0.1") },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          "::1",
          "::ffff:127.0.0.1",
          "10.1.2.3",
          "::ffff:10.1.2.3",
          "2001:db8::1",
          "10.1.2.3, 127.0.0.1",
          "127.0.0.1, 10.1.2.3",
        ),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          "999.999.1.1",
          "' OR 1=1",
          "",
          " ",
          "010.001.002.003",
          "fe80::1%eth0",
          "1.2.3.4:80",
          "[::1]",
        ),
      },
      { weight: 1, arbitrary: hostileHeader.map((text) => text.replace(/,/g, "")) },
    ),
  });
}

/** Turns a spec into call() options; a sign-out gets a session of its own so the shared one survives. */
async function callOptions(endpoint: Endpoint, spec: RequestSpec): Promise<Call> {
  const options: Call = {
    method: endpoint.method,
    path:
      pathFor(
        endpoint,
        Object.fromEntries(Object.entries(spec.params).map(([key, value]) => [key, wellFormed(value)])),
      ) + spec.query,
    params: spec.params,
    ...spec.payload,
    ip: spec.ip,
  };
  const headers: Record<string, string> = {};
  if (spec.caller === "key") options.apiKey = world.apiKey;
  if (spec.caller === "allowlistedKey") options.apiKey = world.allowlistedKey;
  if (spec.caller === "revokedKey") options.apiKey = world.revokedKey;
  if (spec.caller === "keyAndCookie") {
    options.apiKey = world.apiKey;
    options.session = world.session;
  }
  if (spec.caller === "session") options.session = await sessionFor(endpoint);
  if (spec.caller === "junkBearer")
    headers.authorization = `Bearer ${headerSafe(spec.junkTotp).replace(/\s/g, "") || "svc_x"}`;
  if (spec.caller === "junkCookie")
    headers.cookie = `pmc_session=${headerSafe(spec.junkTotp).replace(/[;\s]/g, "") || "x"}`;
  if (spec.totp === "junk") options.totp = spec.junkTotp || undefined;
  if (spec.totp === "wrong") options.totp = world.authenticator.wrongCode();
  if (spec.totp === "valid") options.totp = world.authenticator.nextCode();
  options.headers = { ...headers, ...spec.headers };
  return options;
}

// --- The invariants --------------------------------------------------------------------------------

const ERROR_KEYS = new Set(["error_code", "message", "http_code", "details", "request_id"]);
const LEAKS = [/\n\s+at /, /\bat \S+ \(.*:\d+:\d+\)/, /prisma/i, /sqlite/i, /node_modules/, /\.ts:\d+/];

function checkErrorBody(status: number, body: unknown, what: string) {
  expect(body, `${what}: a ${status} needs a JSON error body`).toBeTypeOf("object");
  expect(body, `${what}: a ${status} needs a JSON error body`).not.toBeNull();
  const error = body as Record<string, unknown>;
  const extra = Object.keys(error).filter((key) => !ERROR_KEYS.has(key));
  expect(extra, `${what}: error body has keys outside the contract: ${JSON.stringify(error).slice(0, 300)}`).toEqual(
    [],
  );
  expect(
    typeof error.error_code === "string" && error.error_code.startsWith("err_"),
    `${what}: error_code ${String(error.error_code)}`,
  ).toBe(true);
  expect(error.message, `${what}: message`).toBeTypeOf("string");
  expect(error.http_code, `${what}: http_code must equal the status`).toBe(status);
  expect(error.request_id, `${what}: request_id names the server's id of the request`).toMatch(/^req_[0-9a-f]{24}$/);
  if ("details" in error) {
    const details = error.details;
    expect(
      details !== null && typeof details === "object" && !Array.isArray(details),
      `${what}: details must be an object`,
    ).toBe(true);
    for (const [key, value] of Object.entries(details as object))
      expect(value, `${what}: details.${key} must be a string`).toBeTypeOf("string");
  }
  const text = JSON.stringify(body);
  for (const leak of LEAKS)
    expect(leak.test(text), `${what}: error body leaks internals (${leak}): ${clip(text, 600)}`).toBe(false);
}

/** Answers per endpoint by status and error code, printed with HOSTILE_STATS=1 to judge how deep the inputs get. */
const STATS: Record<string, Record<string, number>> = {};
afterAll(() => {
  if (process.env.HOSTILE_STATS)
    console.log(
      Object.entries(STATS)
        .map(([what, counts]) => `${what}: ${JSON.stringify(counts)}`)
        .join("\n"),
    );
});

async function checkOne(endpoint: Endpoint, handler: Handler, spec: RequestSpec) {
  const options = await callOptions(endpoint, spec);
  const before = current;
  const response = await call(handler, options);
  // Digested before any assertion, so a failing run does not leave a stale baseline for the next one.
  const after = await digest();
  current = after;
  const what = `${endpoint.method} ${endpoint.path}`;
  const { status } = response;
  const outcome = status >= 400 ? `${status} ${String(response.body?.error_code)}` : String(status);
  STATS[what] ??= {};
  STATS[what][outcome] = (STATS[what][outcome] ?? 0) + 1;
  expect(status >= 500, `${what} answered ${status}: ${clip(JSON.stringify(response.body), 600)}`).toBe(false);
  // A browser navigation's route (single sign-on) succeeds with its redirect.
  const success = (status >= 200 && status < 300) || (status >= 300 && status === endpoint.status);
  expect(success || (status >= 400 && status < 500), `${what} answered ${status}`).toBe(true);
  // A route that answers with a file answers its errors in JSON all the same.
  const fileTypes = success ? (endpoint.produces ?? []) : [];
  expect(response.headers.get("content-type") ?? "", `${what}: content type`).toSatisfy(
    // The media type without its parameters (a CSV export's `; charset=utf-8`).
    (type: string) => /^application\/json/.test(type) || fileTypes.includes(type.split(";")[0]!.trim()),
  );
  const changes = describeChanges(before, after);
  // Reads stay reads, whatever they answer (lastSeenAt and lastUsedAt are left out of the digest).
  if (endpoint.method === "GET")
    expect(changes, `${what} answered ${status} but changed the database:\n${changes.join("\n")}`).toEqual([]);
  if (success) {
    expect(status, `${what}: success status`).toBe(endpoint.status ?? 200);
    return;
  }
  checkErrorBody(status, response.body, `${what} → ${status}`);
  expect(
    changes,
    `${what} answered ${status} ${String(response.body?.error_code)} but changed the database:\n${changes.join("\n")}`,
  ).toEqual([]);
}

// --- Control characters, lone surrogates and prototype keys: always 422 ---------------------------

const PROTOTYPE_KEYS = ["__proto__", "constructor", "prototype"];
const TEXT_MESSAGE =
  /^(must not contain control characters|must be well-formed Unicode|must not contain bidirectional control characters|must not contain line or paragraph separators)/;

type Refusal = {
  kind: "string field" | "key in body" | "key in query";
  query: string;
  rawBody?: string;
  /** The `details` entry the 422 must carry, and what its message must say (any message for a format field). */
  field: string;
  message: RegExp;
};

/** Path params that pass their schema (real ids where there are some), so a request gets as far as its query and body. */
function passingParams(endpoint: Endpoint): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, schema] of Object.entries(endpoint.params?.shape ?? {})) {
    const passes = (id: string) =>
      (schema as { safeParse(value: unknown): { success: boolean } }).safeParse(id).success;
    const candidates = [
      ...usableIds(),
      ...world.virtualAccountKeys,
      ...ID_PREFIXES.map((prefix) => `${prefix}zz0unknown`),
    ];
    params[name] = candidates.find(passes) ?? "x";
  }
  return params;
}

/** The objects in a value with their paths, so a key can be put into any of them. */
function objectsIn(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => objectsIn(item, [...path, index]));
  if (typeof value !== "object" || value === null) return [];
  return [path, ...Object.entries(value).flatMap(([key, item]) => objectsIn(item, [...path, key]))];
}

const KEY_MARKER = "zzPrototypeKeyMarker";

/** `body` (plain JSON data) as text with `key` added to the object at `at` (JSON.parse makes even "__proto__" an own property). */
function withKeyAt(body: unknown, at: (string | number)[], key: string, value: unknown): string {
  const copy = JSON.parse(JSON.stringify(body)) as unknown;
  let target: unknown = copy;
  for (const step of at) target = (target as Record<string | number, unknown>)[step];
  (target as Record<string, unknown>)[KEY_MARKER] = value;
  return JSON.stringify(copy).replace(`"${KEY_MARKER}":`, `${JSON.stringify(key)}:`);
}

function refusalFor(endpoint: Endpoint): fc.Arbitrary<Refusal> {
  const options: fc.Arbitrary<Refusal>[] = [];
  const escape = (value: string) => encodeURIComponent(value);
  // A string field carrying a control character, a bidirectional control or a line separator (a URL
  // cannot carry a lone surrogate: it arrives as U+FFFD).
  for (const where of ["query", "body"] as const) {
    for (const field of stringFields(endpoint[where])) {
      const name = field.path.join(".");
      const message = field.format ? /./ : TEXT_MESSAGE;
      if (where === "query") {
        const value = tainted(fc.oneof(controlCharacter, bidiCharacter));
        options.push(
          value.map((text) => ({
            kind: "string field",
            query: `?${escape(name)}=${escape(text)}`,
            field: name,
            message,
          })),
        );
      } else {
        // Free text (a decision's reason) takes tab, line feed and bidirectional controls: any other control character still taints it.
        const accepts = (value: string) =>
          (field.schema as { safeParse(value: unknown): { success: boolean } }).safeParse(value).success;
        const freeText = accepts("Acme Acme") && accepts("Acme\tAcme\nAcme");
        const bad = freeText
          ? tainted(
              fc.oneof(
                controlCharacter.filter((char) => char !== "\t" && char !== "\n"),
                loneSurrogate,
              ),
            )
          : taintedString;
        options.push(
          bad.map((text) => ({
            kind: "string field",
            query: "",
            rawBody: JSON.stringify(valueAt(field.path, text)),
            field: name,
            message,
          })),
        );
      }
    }
  }
  // A prototype key anywhere in a JSON body the endpoint reads, beside fuzzed fields (an upload's parts are not JSON).
  if (endpoint.body && endpoint.method !== "GET" && !endpoint.multipart) {
    const keyValue = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constant({ isAdmin: true, named: "forbid", polluted: 1 }),
    );
    options.push(
      fc
        .tuple(shapedObject(endpoint.body, 0), fc.constantFrom(...PROTOTYPE_KEYS), keyValue, fc.nat())
        .map(([shaped, key, value, pick]) => {
          // Through JSON first: a value the generator shares between two places becomes two values.
          const body = JSON.parse(JSON.stringify(shaped)) as unknown;
          const places = objectsIn(body);
          const at = places[pick % places.length]!;
          // The generated shape may already hold a prototype key on the way there (fast-check's strings
          // favour "__proto__", "constructor" and "prototype"): that one is refused, and nothing inside it
          // is looked at, so the first prototype key on the path is the field named.
          const path = [...at, key];
          const first = path.findIndex((step) => typeof step === "string" && PROTOTYPE_KEYS.includes(step));
          return {
            kind: "key in body",
            query: "",
            rawBody: withKeyAt(body, at, key, value),
            field: path.slice(0, first + 1).join("."),
            message: /is not accepted as a key/,
          };
        }),
    );
  }
  // A prototype key in the query string, of any endpoint, beside an ordinary parameter or alone.
  options.push(
    fc
      .tuple(
        fc.constantFrom(...PROTOTYPE_KEYS),
        fc.constantFrom("", "1", "x", "[object Object]"),
        fc.constantFrom("", "limit=5&", "a=1&"),
      )
      .map(([key, value, before]) => ({
        kind: "key in query",
        query: `?${before}${key}=${value}`,
        field: key,
        message: /is not accepted as a key/,
      })),
  );
  return fc.oneof(...options);
}

/**
 * The employee's session, or for sign-out a fresh session of theirs: signing out the shared one would
 * end it for every later case. The new session row is part of the state `current` records.
 */
async function sessionFor(endpoint: Endpoint): Promise<string> {
  if (endpoint.method !== "DELETE" || endpoint.path !== "/v1/sessions/current") return world.session;
  const { cookie } = await createSession({ employeeId: world.employeeId, ip: "127.0.0.1" });
  current = await digest();
  return /=([^;]*)/.exec(cookie)![1]!;
}

async function checkRefused(endpoint: Endpoint, handler: Handler, refusal: Refusal) {
  const params = passingParams(endpoint);
  const options: Call = {
    method: endpoint.method,
    path: pathFor(endpoint, params) + refusal.query,
    params,
    rawBody: refusal.rawBody,
  };
  // Past authentication, CSRF and authorization (the owner may do everything), so input checks decide.
  if (endpoint.auth !== "public") options.session = await sessionFor(endpoint);
  const before = current;
  const response = await call(handler, options);
  const after = await digest();
  current = after;
  const what = `${endpoint.method} ${endpoint.path} with a ${refusal.kind} (${clip(refusal.query + (refusal.rawBody ?? ""), 200)})`;
  expect(response.status, `${what} answered ${response.status}: ${clip(JSON.stringify(response.body), 600)}`).toBe(422);
  checkErrorBody(422, response.body, what);
  expect(response.body?.error_code, what).toBe("err_validation");
  const details = response.body?.details ?? {};
  expect(Object.keys(details), `${what}: details name the field`).toContain(refusal.field);
  expect(details[refusal.field], `${what}: message for ${refusal.field}`).toMatch(refusal.message);
  const changes = describeChanges(before, after);
  expect(changes, `${what} answered 422 but changed the database:\n${changes.join("\n")}`).toEqual([]);
}

// --- One property per endpoint --------------------------------------------------------------------

/**
 * Runs per endpoint; sign-in hashes a password (~0.3 s) for every well-formed body, so it gets fewer.
 * HOSTILE_RUNS_SCALE=10 multiplies them for a deeper search on demand.
 */
const SCALE = Number(process.env.HOSTILE_RUNS_SCALE ?? "1") || 1;
const runsFor = (endpoint: Endpoint) =>
  Math.round(
    SCALE *
      (endpoint.path === "/v1/sessions" && endpoint.method === "POST"
        ? 10
        : endpoint.path === "/v1/employees/invitations/accept"
          ? 20
          : 40),
  );

/**
 * Each case under the test's 60 s (times SCALE): a run that hangs fails after 15 s with its input, and the
 * whole property stops at 45 s. Past that, a failure found so far is reported with the input shrunk as far
 * as it got (rather than the test timing out while fast-check shrinks, which names no input); a slow
 * machine that found none has run fewer cases, which passes.
 */
const bounded = (scale: number) => ({ timeout: 15_000, interruptAfterTimeLimit: 45_000 * scale });

describe("hostile input: every endpoint answers success or a contract-shaped 4xx, and a 4xx changes nothing", () => {
  it("covers every endpoint", () => {
    expect(routes.length).toBeGreaterThan(30);
  });

  // The database check must be able to fail: a real write shows up, an audit record does not.
  it("the digest sees a write and ignores the audit trail", async () => {
    const before = await digest();
    await recordAuditEvent({
      actor: null,
      action: "test.digest",
      targetId: null,
      ip: null,
      status: 400,
      requestId: "req_digest",
    });
    expect(describeChanges(before, await digest())).toEqual([]);
    const [platform] = await db().account.findMany({ where: { parentId: null }, take: 1 });
    await withScope({ platformId: platform!.id, accountId: platform!.id }, () =>
      createDelegatedUser({ externalId: "digest-check" }),
    );
    const changes = describeChanges(before, await digest());
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatch(/^DelegatedUser: 0 row\(s\) gone or changed, 1 new or changed/);
  });

  for (const { endpoint, handler } of routes) {
    it(
      `${endpoint.method} ${endpoint.path}`,
      async () => {
        current = await digest();
        await fc.assert(
          fc.asyncProperty(requestSpec(endpoint), async (spec) => checkOne(endpoint, handler, spec)),
          { numRuns: runsFor(endpoint), ...bounded(SCALE) },
        );
      },
      60_000 * SCALE,
    );
  }

  // The cases above may call as the signed-in employee in any way; the part below needs them as they were.
  it("leaves the signed-in employee an active owner with a working session", async () => {
    const session = await resolveSession(world.session);
    expect(session?.employee).toMatchObject({ id: world.employeeId, status: "active", role: "owner" });
  });
});

describe("control characters, lone surrogates and prototype keys: 422 naming the field, and nothing changes", () => {
  it("a prototype key is put where the test says (JSON.parse keeps it as an own property)", () => {
    const text = withKeyAt({ a: [{ b: 1 }] }, ["a", 0], "__proto__", { polluted: 1 });
    expect(text).toBe('{"a":[{"b":1,"__proto__":{"polluted":1}}]}');
    expect(Object.keys(JSON.parse(text).a[0])).toEqual(["b", "__proto__"]);
  });

  for (const { endpoint, handler } of routes) {
    it(
      `${endpoint.method} ${endpoint.path}`,
      async () => {
        current = await digest();
        await fc.assert(
          fc.asyncProperty(refusalFor(endpoint), async (refusal) => checkRefused(endpoint, handler, refusal)),
          { numRuns: Math.round(SCALE * 15), ...bounded(SCALE) },
        );
      },
      60_000 * SCALE,
    );
  }
});
