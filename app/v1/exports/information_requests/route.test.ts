import { describe, expect, it } from "vitest";
import { GET as listRequests } from "@/app/v1/information_requests/route";
import { createSubAccount } from "@/lib/accounts/accounts";
import { db } from "@/lib/db";
import { jsonObject } from "@/lib/db/json";
import { newId } from "@/lib/ids/generate";
import { raiseInformationRequest } from "@/lib/information-requests/information-requests";
import type { InformationRequestPriority, InformationRequestStatus } from "@/lib/information-requests/schemas";
import { withScope, type Scope } from "@/lib/tenancy";
import { lastAuditEvent } from "@/lib/testing/audit";
import { csvObjects, parseCsv } from "@/lib/testing/csv";
import { apiKeyFor, platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError, type IdPage } from "@/lib/testing/http";
import { GET } from "./route";

const HEADER = [
  "id",
  "accountId",
  "kind",
  "status",
  "priority",
  "assigneeId",
  "dueAt",
  "overdue",
  "createdAt",
  "updatedAt",
  "reviewerId",
  "reviewStartedAt",
  "decidedById",
  "decidedAt",
  "decisionReasonCode",
  "decisionReason",
  "transferId",
  "submissionId",
];
const HOUR = 3_600_000;

type Caller = { apiKey: string } | { session: string };
const exportCsv = (caller: Caller, query = "") =>
  call<string>(GET, { ...caller, path: `/v1/exports/information_requests${query}` });
/** The same call, its answer typed as a refusal. */
const refused = (caller: Caller, query = "") =>
  call(GET, { ...caller, path: `/v1/exports/information_requests${query}` });

/** A request of the scope with the columns a test needs. */
async function requestWith(
  scope: Scope,
  fields: {
    dueAt?: Date | null;
    status?: InformationRequestStatus;
    priority?: InformationRequestPriority;
    assigneeId?: string | null;
    decisionReason?: string | null;
  } = {},
) {
  const request = await withScope(scope, () => raiseInformationRequest({ kind: "due_diligence" }));
  await db().informationRequest.update({ where: { id: request.id }, data: fields });
  return request.id;
}

/** The ids the list shows with `query`, every page of it. */
async function listedIds(caller: Caller, query: string) {
  const ids: string[] = [];
  let next: string | null = null;
  do {
    const cursor: string = next ? `&next=${next}` : "";
    const page = await call<IdPage>(listRequests, {
      ...caller,
      path: `/v1/information_requests?limit=100${query}${cursor}`,
    });
    expect(page.status, query).toBe(200);
    ids.push(...page.body.items.map((item) => item.id));
    next = page.body.next;
  } while (next);
  return ids;
}

describe("GET /v1/exports/information_requests", () => {
  it("200: a CSV attachment of the requests as the list shows them, with a header row", async () => {
    const { apiKey, scope, account } = await platformWithKey();
    const id = await requestWith(scope, { priority: "urgent", dueAt: new Date(Date.now() - HOUR) });
    const response = await exportCsv({ apiKey });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="information-requests-${new Date().toISOString().slice(0, 10)}.csv"`,
    );
    expect(parseCsv(response.body)[0]).toEqual(HEADER);
    const [row] = csvObjects(response.body);
    const listed = (await call(listRequests, { apiKey, path: "/v1/information_requests" })).body.items![0]!;
    expect(row).toEqual(
      Object.fromEntries(
        HEADER.map((column) => {
          const value = column === "accountId" ? account.id : (listed as Record<string, unknown>)[column];
          return [column, value === null ? "" : String(value)];
        }),
      ),
    );
    expect(row).toMatchObject({ id, priority: "urgent", overdue: "true", status: "requested" });
  });

  it("honours the list's filters and sorts", async () => {
    const { owner, officer, scope } = await (async () => {
      const owner = await signedInEmployee();
      const officer = await signedInEmployee({ role: "compliance", platform: owner.account });
      return { owner, officer, scope: { platformId: owner.account.id, accountId: owner.account.id } };
    })();
    await requestWith(scope, { assigneeId: officer.employee.id, priority: "high", dueAt: new Date(Date.now() + HOUR) });
    await requestWith(scope, { dueAt: new Date(Date.now() - HOUR) });
    await requestWith(scope, { status: "approved", dueAt: new Date(Date.now() - 2 * HOUR) });
    await requestWith(scope, { priority: "low" });
    const caller = { session: officer.session };
    const queries = [
      "",
      `?assigneeId=${officer.employee.id}`,
      "?assigneeId=me",
      "?assigneeId=none",
      "?overdue=true",
      "?priority=high&priority=low",
      "?status=approved",
      "?kind=endorsement",
      "?sort=dueAt",
      "?order=asc",
      `?startDate=${new Date(Date.now() - HOUR).toISOString()}&endDate=${new Date(Date.now() + HOUR).toISOString()}`,
    ];
    for (const query of queries) {
      const listed = await listedIds(caller, query.replace("?", "&"));
      const response = await exportCsv(caller, query);
      expect(response.status, query).toBe(200);
      expect(
        csvObjects(response.body).map((row) => row.id),
        query,
      ).toEqual(listed);
    }
    expect(csvObjects((await exportCsv({ session: owner.session }, "?overdue=true")).body)).toHaveLength(1);
  });

  it("422 for what the list refuses: assigneeId=me from a key, a reversed range", async () => {
    const { apiKey } = await platformWithKey();
    expectError(await refused({ apiKey }, "?assigneeId=me"), 422, "err_validation");
    expectError(await refused({ apiKey }, "?startDate=2026-02-01&endDate=2026-01-01"), 422, "err_validation");
  });

  it("neutralises formula cells and keeps quotes, commas, newlines and unicode (decision reasons are free text)", async () => {
    const { apiKey, scope } = await platformWithKey();
    const reasons = ["=cmd|' /C calc'!A0", "+1", "-1", "@x", "\tx", "\rx", 'said "no", then\nleft: Zoë 中文 😀'];
    for (const decisionReason of reasons) await requestWith(scope, { status: "rejected", decisionReason });
    const written = csvObjects((await exportCsv({ apiKey })).body).map((row) => row.decisionReason);
    expect(written.sort()).toEqual(["'=cmd|' /C calc'!A0", "'+1", "'-1", "'@x", "'\tx", "'\rx", reasons.at(-1)].sort());
  });

  it("an empty export is the header row alone; every export is audited with its filters and row count", async () => {
    const { apiKey, key, scope, account } = await platformWithKey();
    const empty = await exportCsv({ apiKey }, "?kind=endorsement");
    expect(empty.status).toBe(200);
    expect(empty.body).toBe(`${HEADER.join(",")}\r\n`);
    const first = await lastAuditEvent({ action: "export.created", actorId: key.id });
    expect(first).toMatchObject({ outcome: "success", status: 200, actedForAccountId: account.id, targetId: null });
    expect(jsonObject(first.details)).toEqual({
      resource: "information_requests",
      filters: { kind: "endorsement", sort: "createdAt", order: "desc" },
      rowCount: 0,
    });
    await requestWith(scope);
    await requestWith(scope);
    await exportCsv({ apiKey }, "?status=requested");
    const second = await lastAuditEvent({ action: "export.created", actorId: key.id });
    expect(second.id).not.toBe(first.id);
    expect(jsonObject(second.details)).toMatchObject({ filters: { status: ["requested"] }, rowCount: 2 });
  });

  it("streams a large export a page at a time (2,000 rows)", async () => {
    const { apiKey, account } = await platformWithKey();
    const start = Date.now() - 86_400_000;
    await db().informationRequest.createMany({
      data: Array.from({ length: 2000 }, (_, index) => ({
        id: newId("ir"),
        accountId: account.id,
        kind: "due_diligence" as const,
        status: "requested" as const,
        createdAt: new Date(start + index),
        dueAt: new Date(start + 2 * HOUR - index),
      })),
    });
    for (const sort of ["createdAt", "dueAt"]) {
      const response = await GET(
        new Request(`http://localhost:3000/v1/exports/information_requests?sort=${sort}`, {
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
      const times = rows.map((row) => Date.parse(sort === "dueAt" ? row.dueAt! : row.createdAt!));
      expect(times).toEqual([...times].sort((a, b) => (sort === "dueAt" ? a - b : b - a)));
    }
    const audit = await lastAuditEvent({ action: "export.created" });
    expect(jsonObject(audit.details)).toMatchObject({ rowCount: 2000 });
  });

  it("another platform's and another account's requests are not in it", async () => {
    const mine = await platformWithKey();
    const theirs = await platformWithKey();
    const own = await requestWith(mine.scope);
    await requestWith(theirs.scope);
    const sub = await withScope(mine.scope, () => createSubAccount({ name: "Sub", parentId: mine.account.id }));
    const inSub = await requestWith({ platformId: mine.account.id, accountId: sub.id });
    expect(csvObjects((await exportCsv({ apiKey: mine.apiKey })).body).map((row) => row.id)).toEqual([own]);
    const forSub = await call<string>(GET, {
      apiKey: mine.apiKey,
      path: "/v1/exports/information_requests",
      headers: { "service-account-id": sub.id },
    });
    expect(csvObjects(forSub.body).map((row) => [row.id, row.accountId])).toEqual([[inSub, sub.id]]);
  });

  it("403 without information_requests:read (a key without it, a role without it), and the refusal is audited", async () => {
    const { account } = await platformWithKey();
    const narrow = await apiKeyFor(account.id, { permissions: ["audit_log:read"] });
    expectError(await refused({ apiKey: narrow.secret }), 403, "err_forbidden");
    expect(await lastAuditEvent({ action: "export.created", actorId: narrow.id })).toMatchObject({
      outcome: "denied",
      status: 403,
    });
    const developer = await signedInEmployee({ role: "developer" });
    expectError(await refused({ session: developer.session }), 403, "err_forbidden");
  });
});
