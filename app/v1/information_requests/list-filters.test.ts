import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { raiseInformationRequest } from "@/lib/information-requests/information-requests";
import {
  informationRequestStatuses,
  type InformationRequestPriority,
  type InformationRequestStatus,
} from "@/lib/information-requests/schemas";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, cursorOf } from "@/lib/testing/http";
import { withScope, type Scope } from "@/lib/tenancy";
import { GET } from "./route";

// The work queue's filters and sorts (docs/api.md, Information requests as cases).

const HOUR = 3_600_000;

/** A request of the scope with the given columns set as a test needs them. */
async function requestWith(
  scope: Scope,
  fields: {
    dueAt?: Date | null;
    status?: InformationRequestStatus;
    priority?: InformationRequestPriority;
    assigneeId?: string | null;
  } = {},
) {
  const request = await withScope(scope, () => raiseInformationRequest({ kind: "due_diligence" }));
  await db().informationRequest.update({ where: { id: request.id }, data: fields });
  return request.id;
}

type Caller = { apiKey: string } | { session: string };
const list = (caller: Caller, query = "") => call(GET, { ...caller, path: `/v1/information_requests${query}` });
const ids = (response: { body: { items?: { id: string }[] } }) => (response.body.items ?? []).map((item) => item.id);
const sorted = (values: string[]) => [...values].sort();

/** A signed-in compliance employee of a new platform, an owner's session there, and the platform's scope. */
async function staff() {
  const owner = await signedInEmployee();
  const officer = await signedInEmployee({ role: "compliance", platform: owner.account });
  return { owner, officer, scope: { platformId: owner.account.id, accountId: owner.account.id } };
}

describe("GET /v1/information_requests: filters", () => {
  it("200 by assigneeId: an employee id, `me` (the calling employee) and `none`", async () => {
    const { owner, officer, scope } = await staff();
    const mine = await requestWith(scope, { assigneeId: officer.employee.id });
    const owners = await requestWith(scope, { assigneeId: owner.employee.id });
    const nobodys = await requestWith(scope);
    expect(ids(await list({ session: owner.session }, `?assigneeId=${officer.employee.id}`))).toEqual([mine]);
    expect(ids(await list({ session: officer.session }, "?assigneeId=me"))).toEqual([mine]);
    expect(ids(await list({ session: owner.session }, "?assigneeId=me"))).toEqual([owners]);
    expect(ids(await list({ session: owner.session }, "?assigneeId=none"))).toEqual([nobodys]);
    const all = await list({ session: owner.session });
    expect(all.body.items?.find((item) => item.id === mine)).toMatchObject({ assigneeId: officer.employee.id });
  });

  it("422 details.assigneeId for `me` from an API key (a key is no employee) and for a malformed id", async () => {
    const { apiKey } = await platformWithKey();
    for (const query of ["?assigneeId=me", "?assigneeId=key_1", "?assigneeId=", "?assigneeId=me&assigneeId=none"]) {
      const response = await list({ apiKey }, query);
      expect(response.status, query).toBe(422);
      expect(Object.keys(response.body.details ?? {}), query).toEqual(["assigneeId"]);
    }
  });

  it("200 overdue=true: past dueAt and still requested or on_review; `overdue` shown on each request", async () => {
    const { apiKey, scope } = await platformWithKey();
    const past = new Date(Date.now() - HOUR);
    const late = await requestWith(scope, { dueAt: past });
    const lateOnReview = await requestWith(scope, { dueAt: past, status: "on_review" });
    const decided = await requestWith(scope, { dueAt: past, status: "approved" });
    const onTime = await requestWith(scope, { dueAt: new Date(Date.now() + HOUR) });
    const noSla = await requestWith(scope);
    expect(sorted(ids(await list({ apiKey }, "?overdue=true")))).toEqual(sorted([late, lateOnReview]));
    expect(ids(await list({ apiKey }, "?overdue=true&status=on_review"))).toEqual([lateOnReview]);
    const flags = Object.fromEntries(
      ((await list({ apiKey })).body.items ?? []).map((item) => [item.id, item.overdue]),
    );
    expect(flags).toEqual({ [late]: true, [lateOnReview]: true, [decided]: false, [onTime]: false, [noSla]: false });
    const response = await list({ apiKey }, "?overdue=false");
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.details ?? {})).toEqual(["overdue"]);
  });

  it("200 by priority, one or several; 422 for an unknown one", async () => {
    const { apiKey, scope } = await platformWithKey();
    const urgent = await requestWith(scope, { priority: "urgent" });
    const high = await requestWith(scope, { priority: "high" });
    await requestWith(scope);
    expect(ids(await list({ apiKey }, "?priority=urgent"))).toEqual([urgent]);
    expect(sorted(ids(await list({ apiKey }, "?priority=urgent&priority=high")))).toEqual(sorted([urgent, high]));
    const response = await list({ apiKey }, "?priority=critical");
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.details ?? {})).toEqual(["priority"]);
  });
});

describe("GET /v1/information_requests: sort", () => {
  it("200 sort=dueAt: soonest first, ties by id, requests without a due date last", async () => {
    const { apiKey, scope } = await platformWithKey();
    const soon = new Date(Date.now() + HOUR);
    const tied = sorted([await requestWith(scope, { dueAt: soon }), await requestWith(scope, { dueAt: soon })]);
    const earliest = await requestWith(scope, { dueAt: new Date(Date.now() - HOUR) });
    const latest = await requestWith(scope, { dueAt: new Date(Date.now() + 2 * HOUR) });
    const undated = sorted([await requestWith(scope), await requestWith(scope)]);
    const expected = [earliest, ...tied, latest, ...undated];
    expect(ids(await list({ apiKey }, "?sort=dueAt"))).toEqual(expected);
    // Paged one at a time, through the ties and into the undated ones.
    const seen: string[] = [];
    let next: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof list>> = await list(
        { apiKey },
        `?sort=dueAt&limit=1${next ? `&next=${next}` : ""}`,
      );
      expect(page.status).toBe(200);
      seen.push(...ids(page));
      next = page.body.next ?? null;
    } while (next && seen.length <= expected.length);
    expect(seen).toEqual(expected);
  });

  it("400 for a cursor used with another sort than the one it was issued for", async () => {
    const { apiKey, scope } = await platformWithKey();
    await requestWith(scope, { dueAt: new Date() });
    await requestWith(scope);
    const byCreation = cursorOf(await list({ apiKey }, "?limit=1"));
    const byDue = cursorOf(await list({ apiKey }, "?sort=dueAt&limit=1"));
    for (const query of [`?sort=dueAt&next=${byCreation}`, `?sort=createdAt&next=${byDue}`, `?next=${byDue}`]) {
      const response = await list({ apiKey }, query);
      expect(response.status, query).toBe(400);
      expect(Object.keys(response.body.details ?? {}), query).toEqual(["next"]);
    }
    const response = await list({ apiKey }, "?sort=priority");
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.details ?? {})).toEqual(["sort"]);
  });

  it("pages sort=dueAt while requests are created between pages: each earlier request exactly once, in order", async () => {
    // Due dates from a small set around now, so ties (ordered by id), overdue requests and requests
    // without one (last) are common; every status, as the page reads one status at a time and merges.
    const row = fc.record({
      hour: fc.option(fc.integer({ min: -3, max: 3 }), { nil: null }),
      status: fc.constantFrom(...informationRequestStatuses),
    });
    const filters = {
      all: () => true,
      open: (status: InformationRequestStatus, _dueAt: Date | null) => OPEN.includes(status),
      overdue: (status: InformationRequestStatus, dueAt: Date | null) =>
        OPEN.includes(status) && dueAt !== null && dueAt.getTime() < Date.now(),
    };
    const queries = { all: "", open: "&status=requested&status=on_review", overdue: "&overdue=true" };
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 0, maxLength: 12 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.array(row, { maxLength: 3 }), { maxLength: 12 }),
        fc.constantFrom("all", "open", "overdue"),
        async (initial, limit, arrivals, filter: keyof typeof filters) => {
          const { apiKey, scope } = await platformWithKey();
          const base = Date.now();
          const insert = async (values: { hour: number | null; status: InformationRequestStatus }[]) => {
            const rows = values.map(({ hour, status }) => ({
              id: newId("ir"),
              accountId: scope.accountId,
              kind: "due_diligence" as const,
              status,
              // Whole hours plus a minute: never within the test's run of now, so overdue cannot change meanwhile.
              dueAt: hour === null ? null : new Date(base + hour * HOUR + (hour < 0 ? -60_000 : 60_000)),
            }));
            await db().informationRequest.createMany({ data: rows });
            return rows;
          };
          const existing = await insert(initial);
          const seen: string[] = [];
          let next: string | null = null;
          let page = 0;
          do {
            const response: Awaited<ReturnType<typeof list>> = await list(
              { apiKey },
              `?sort=dueAt&limit=${limit}${queries[filter]}${next ? `&next=${next}` : ""}`,
            );
            expect(response.status).toBe(200);
            seen.push(...ids(response));
            next = response.body.next ?? null;
            await insert(arrivals[page] ?? []);
            page += 1;
          } while (next && page < 100);
          const expected = existing
            .filter((request) => filters[filter](request.status, request.dueAt))
            .sort((a, b) => dueKey(a.dueAt) - dueKey(b.dueAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
            .map((request) => request.id);
          const known = new Set(existing.map((request) => request.id));
          expect(seen.filter((id) => known.has(id))).toEqual(expected);
          expect(new Set(seen).size).toBe(seen.length);
        },
      ),
      { numRuns: 20 },
    );
  });
});

const OPEN: readonly InformationRequestStatus[] = ["requested", "on_review"];
const dueKey = (dueAt: Date | null) => (dueAt === null ? Number.POSITIVE_INFINITY : dueAt.getTime());

describe("dueAt from the platform's SLA", () => {
  it("is createdAt plus the SLA hours for the request's kind, or null without an SLA for it", async () => {
    const { apiKey, account, scope } = await platformWithKey();
    await db().account.update({ where: { id: account.id }, data: { slaHoursDueDiligence: 48 } });
    const diligence = await withScope(scope, () => raiseInformationRequest({ kind: "due_diligence" }));
    const endorsement = await withScope(scope, () => raiseInformationRequest({ kind: "endorsement" }));
    const byId = Object.fromEntries(((await list({ apiKey })).body.items ?? []).map((item) => [item.id, item]));
    const createdAt = Date.parse(byId[diligence.id]!.createdAt);
    expect(byId[diligence.id]).toMatchObject({ dueAt: new Date(createdAt + 48 * HOUR).toISOString(), overdue: false });
    expect(byId[endorsement.id]).toMatchObject({ dueAt: null, overdue: false, priority: "normal", assigneeId: null });
  });
});
