import { describe, expect, it } from "vitest";
import { GET as listEvents } from "@/app/v1/audit_events/route";
import { createSubAccount } from "@/lib/accounts/accounts";
import { writeAuditEvent } from "@/lib/audit/trail";
import { db } from "@/lib/db";
import { jsonObject } from "@/lib/db/json";
import { newId } from "@/lib/ids/generate";
import { withScope } from "@/lib/tenancy";
import { lastAuditEvent } from "@/lib/testing/audit";
import { csvObjects, parseCsv } from "@/lib/testing/csv";
import { apiKeyFor, nextMillisecond, platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError, type IdPage } from "@/lib/testing/http";
import { GET } from "./route";

const HEADER = [
  "id",
  "at",
  "accountId",
  "actedForAccountId",
  "actorType",
  "actorId",
  "action",
  "targetId",
  "ip",
  "outcome",
  "status",
  "requestId",
  "clientRequestId",
  "details",
];

type Options = { apiKey?: string; session?: string; query?: string };
const exportCsv = (options: Options) =>
  call<string>(GET, { ...options, path: `/v1/exports/audit_events${options.query ?? ""}` });
/** The same call, its answer typed as a refusal. */
const refused = (options: Options) => call(GET, { ...options, path: `/v1/exports/audit_events${options.query ?? ""}` });

/** An audit record of the platform, written as the service's own (no actor). */
const record = (platformId: string, action: string, details?: Record<string, unknown>) =>
  writeAuditEvent({
    actor: null,
    platformId,
    action,
    targetId: null,
    ip: null,
    status: 200,
    requestId: "req_t",
    details,
  });

/** The ids GET /v1/audit_events lists with `query`, every page of it. */
async function listedIds(apiKey: string, query: string) {
  const ids: string[] = [];
  let next: string | null = null;
  do {
    const cursor: string = next ? `&next=${next}` : "";
    const page = await call<IdPage>(listEvents, { apiKey, path: `/v1/audit_events?limit=100${query}${cursor}` });
    ids.push(...page.body.items.map((item) => item.id));
    next = page.body.next;
  } while (next);
  return ids;
}

describe("GET /v1/exports/audit_events", () => {
  it("200: a CSV attachment of what the list shows, newest first, with a header row", async () => {
    const { apiKey, account } = await platformWithKey();
    await record(account.id, "export.test.one", { note: "a,b" });
    await nextMillisecond();
    await record(account.id, "export.test.two");
    // Listed first: the export's own audit record follows it.
    const listed = await listedIds(apiKey, "");
    const response = await exportCsv({ apiKey });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="audit-events-${new Date().toISOString().slice(0, 10)}.csv"`,
    );
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    expect(parseCsv(response.body)[0]).toEqual(HEADER);
    const rows = csvObjects(response.body);
    expect(rows.map((row) => row.id)).toEqual(listed);
    const one = rows.find((row) => row.action === "export.test.one")!;
    expect(one).toMatchObject({ actorType: "anonymous", actorId: "", outcome: "success", status: "200" });
    expect(JSON.parse(one.details!)).toEqual({ note: "a,b" });
  });

  it("honours the list's filters: action, actorId, startDate, endDate and order", async () => {
    const { apiKey, account, key } = await platformWithKey();
    await record(account.id, "export.test.filtered");
    await record(account.id, "export.test.other");
    const cases = [
      "?action=export.test.filtered",
      `?actorId=${key.id}`,
      "?startDate=2000-01-01&endDate=2000-01-02",
      `?order=asc&startDate=${new Date(Date.now() - 3_600_000).toISOString()}`,
    ];
    for (const query of cases) {
      const listed = await listedIds(apiKey, query.replace("?", "&"));
      const response = await exportCsv({ apiKey, query });
      expect(response.status, query).toBe(200);
      expect(
        csvObjects(response.body).map((row) => row.id),
        query,
      ).toEqual(listed);
    }
    const filtered = csvObjects((await exportCsv({ apiKey, query: "?action=export.test.filtered" })).body);
    expect(filtered.map((row) => row.action)).toEqual(["export.test.filtered"]);
  });

  it("neutralises cells a spreadsheet would run as a formula, and keeps quotes, commas, newlines and unicode", async () => {
    const { apiKey, account } = await platformWithKey();
    const actions = ["=cmd|' /C calc'!A0", "+1", "-1", "@SUM(A1)", "\tx", "\rx", 'say "hi", then\nleave: Zoë 中文 😀'];
    for (const action of actions) await record(account.id, action);
    const response = await exportCsv({ apiKey, query: "?order=asc" });
    const written = csvObjects(response.body).map((row) => row.action);
    expect(written).toEqual(
      expect.arrayContaining(["'=cmd|' /C calc'!A0", "'+1", "'-1", "'@SUM(A1)", "'\tx", "'\rx", actions.at(-1)]),
    );
  });

  it("an empty export is the header row alone, and is audited with rowCount 0 and its filters", async () => {
    const { apiKey, key, account } = await platformWithKey();
    const response = await exportCsv({ apiKey, query: "?action=nothing.matches&startDate=2026-01-01" });
    expect(response.status).toBe(200);
    expect(response.body).toBe(`${HEADER.join(",")}\r\n`);
    const audit = await lastAuditEvent({ action: "export.created", actorId: key.id });
    expect(audit).toMatchObject({
      actorType: "api_key",
      outcome: "success",
      status: 200,
      actedForAccountId: account.id,
    });
    expect(audit.requestId).toBe(response.headers.get("x-request-id"));
    expect(jsonObject(audit.details)).toEqual({
      resource: "audit_events",
      filters: { action: "nothing.matches", startDate: "2026-01-01T00:00:00.000Z", order: "desc" },
      rowCount: 0,
    });
  });

  it("the export is audited with the number of rows it wrote", async () => {
    const { account, employee, session } = await signedInEmployee();
    await record(account.id, "export.test.counted");
    await record(account.id, "export.test.counted");
    const response = await call<string>(GET, { session, path: "/v1/exports/audit_events?action=export.test.counted" });
    expect(csvObjects(response.body)).toHaveLength(2);
    const audit = await lastAuditEvent({ action: "export.created", actorId: employee.id });
    expect(jsonObject(audit.details)).toMatchObject({ resource: "audit_events", rowCount: 2 });
    // The export's own record comes after it: a second export shows the first.
    const again = csvObjects((await call<string>(GET, { session, path: "/v1/exports/audit_events" })).body);
    expect(again.some((row) => row.id === audit.id)).toBe(true);
  });

  it("streams a large export a page at a time (2,000 rows)", async () => {
    const { apiKey, account } = await platformWithKey();
    const start = Date.now() - 86_400_000;
    await db().auditEvent.createMany({
      data: Array.from({ length: 2000 }, (_, index) => ({
        id: newId("aud"),
        platformId: account.id,
        at: new Date(start + index),
        actorType: "anonymous" as const,
        action: "export.test.bulk",
        outcome: "success" as const,
        status: 200,
        requestId: `req_bulk_${index}`,
      })),
    });
    const response = await GET(
      new Request("http://localhost:3000/v1/exports/audit_events?action=export.test.bulk", {
        headers: { authorization: `Bearer ${apiKey}`, host: "localhost:3000", "x-forwarded-for": "127.0.0.1" },
      }),
      { params: Promise.resolve({}) },
    );
    expect(response.status).toBe(200);
    const chunks: Uint8Array[] = [];
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
    // The header, then one chunk per page of 500.
    expect(chunks.length).toBeGreaterThanOrEqual(5);
    const rows = csvObjects(Buffer.concat(chunks).toString("utf8"));
    expect(rows).toHaveLength(2000);
    expect(new Set(rows.map((row) => row.id)).size).toBe(2000);
    expect(rows[0]!.requestId).toBe("req_bulk_1999");
    expect(rows.at(-1)!.requestId).toBe("req_bulk_0");
  });

  it("another platform's events are not in it", async () => {
    const mine = await platformWithKey();
    const theirs = await platformWithKey();
    await record(theirs.account.id, "export.test.theirs");
    await record(mine.account.id, "export.test.mine");
    const rows = csvObjects((await exportCsv({ apiKey: mine.apiKey })).body);
    expect(rows.some((row) => row.action === "export.test.theirs")).toBe(false);
    expect(rows.length).toBeGreaterThan(0);
  });

  it("403 without audit_log:read (a key without it) and for a sub-account's key, and the refusal is audited", async () => {
    const { account, apiKey } = await platformWithKey();
    const narrow = await apiKeyFor(account.id, { permissions: ["transfers:read"] });
    expectError(await refused({ apiKey: narrow.secret }), 403, "err_forbidden");
    const refusal = await lastAuditEvent({ action: "export.created", actorId: narrow.id });
    expect(refusal).toMatchObject({ outcome: "denied", status: 403 });

    const sub = await withScope({ platformId: account.id, accountId: account.id }, () =>
      createSubAccount({ name: "Sub", parentId: account.id }),
    );
    const subKey = await apiKeyFor(sub.id, { permissions: ["audit_log:read"] });
    expectError(await refused({ apiKey: subKey.secret }), 403, "err_forbidden");
    expect((await exportCsv({ apiKey })).status).toBe(200);
  });
});
