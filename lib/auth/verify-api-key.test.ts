// A presented key's format and checksum are checked before its look-up (docs/api.md, API keys): a
// mistyped or made-up token is refused as an unknown key is, and costs no query. Proven by the
// statements each request sends, counted at the driver on either database.
import { randomBytes } from "node:crypto";
import Database from "better-sqlite3";
import { describe, expect, it, vi } from "vitest";
import { apiKeyChecksum } from "@/lib/auth/api-key-secret";
import { sha256 } from "@/lib/auth/tokens";
import { db } from "@/lib/db";
import { databaseProvider } from "@/lib/env";
import { apiKeyFor, signedInEmployee } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { pgQueriesDuring } from "@/lib/testing/pg-queries";
import { GET } from "@/app/v1/api_keys/route";

type Sql = { source?: unknown };

/** Every statement sent meanwhile, as its SQL text: pg's queries, or better-sqlite3's statements run. */
async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  if (databaseProvider() === "postgresql") return (await pgQueriesDuring(work)).map((query) => query.text);
  const sent: string[] = [];
  // Statements share one prototype: every read and write of the process runs through these four.
  const scratch = new Database(":memory:");
  const prototype = Object.getPrototypeOf(scratch.prepare("SELECT 1")) as Record<string, (...a: unknown[]) => unknown>;
  scratch.close();
  for (const method of ["all", "get", "run", "iterate"]) {
    const original = prototype[method]!;
    vi.spyOn(prototype, method).mockImplementation(function (this: Sql, ...args: unknown[]) {
      sent.push(String(this.source));
      return original.apply(this, args);
    });
  }
  try {
    await work();
  } finally {
    vi.restoreAllMocks();
  }
  return sent;
}

/** The key check's look-up (lib/api-keys/store.ts, readKeyForCheck): by the hash of the presented secret. */
const keyLookups = (statements: string[]) => statements.filter((sql) => /"secretHash" = /.test(sql));

/** The request's answer and what it left in the audit trail, apart from what differs per request. */
async function refusalOf(apiKey: string) {
  let answer!: Awaited<ReturnType<typeof call>>;
  const statements = await statementsOf(async () => (answer = await call(GET, { apiKey })));
  const requestId = answer.headers.get("x-request-id")!;
  const audit = await db().auditEvent.findFirstOrThrow({
    where: { requestId },
    select: { platformId: true, actorType: true, actorId: true, action: true, outcome: true, status: true },
  });
  // Every answer names its own request: the id is checked here, and left out of what is compared.
  const { request_id: answered, ...body } = answer.body as { request_id: string };
  expect(answered).toBe(requestId);
  return { status: answer.status, body, audit, lookups: keyLookups(statements).length };
}

const newShape = (body: string) => `svc_${body}${apiKeyChecksum(body)}`;
const randomBody = () =>
  randomBytes(30)
    .toString("base64")
    .replace(/[^0-9A-Za-z]/g, "0")
    .slice(0, 30);

describe("a presented key's checksum, before any look-up", () => {
  it("a new-shape token whose checksum fails: 401 as an unknown key, and no statement reads a key", async () => {
    const { account } = await signedInEmployee();
    const key = await apiKeyFor(account.id);
    expect(key.secret).toMatch(/^svc_[0-9A-Za-z]{36}$/);
    // The real key with one character of its body mistyped: the CRC no longer matches.
    const typo = key.secret.slice(0, 10) + (key.secret[10] === "a" ? "b" : "a") + key.secret.slice(11);
    const unknown = await refusalOf(newShape(randomBody()));
    const mistyped = await refusalOf(typo);

    // The control: an unknown key whose checksum holds is looked up (which also shows the count works).
    expect(unknown.lookups).toBe(1);
    expect(mistyped.lookups).toBe(0);
    expect(mistyped.status).toBe(401);
    expect(mistyped.body).toEqual(unknown.body);
    expect(mistyped.audit).toEqual(unknown.audit);
    expect(mistyped.audit).toMatchObject({ platformId: null, actorId: null, status: 401 });
  });

  it.each([
    ["too short", "svc_unknownunknownunknown"],
    ["one character past the new shape", `svc_${"a".repeat(37)}`],
    ["the old length with a character outside base64url", `svc_${"a".repeat(42)}.`],
    ["another prefix", `key_${"a".repeat(36)}`],
  ])("a token of neither shape (%s): 401 the same way, without a look-up", async (_, token) => {
    const unknown = await refusalOf(newShape(randomBody()));
    const refused = await refusalOf(token);
    expect(refused.lookups).toBe(0);
    expect({ ...refused, lookups: 1 }).toEqual(unknown);
  });

  it("a key issued before the checksum (svc_ + 43 base64url characters) still authenticates, looked up as before", async () => {
    const { account } = await signedInEmployee();
    const key = await apiKeyFor(account.id);
    // Made as the generator made every key until the checksum: 32 random bytes, base64url.
    const old = `svc_${randomBytes(32).toString("base64url")}`;
    await db().apiKey.update({ where: { id: key.id }, data: { secretHash: sha256(old), prefix: old.slice(0, 12) } });

    let status = 0;
    const statements = await statementsOf(async () => (status = (await call(GET, { apiKey: old })).status));
    expect(status).toBe(200);
    expect(keyLookups(statements)).toHaveLength(1);
    expect((await call(GET, { apiKey: key.secret })).status).toBe(401);
  });
});
