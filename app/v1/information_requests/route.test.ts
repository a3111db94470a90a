import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { raiseInformationRequest } from "@/lib/information-requests/information-requests";
import { platformWithKey, raisedRequest } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { withScope, type Scope } from "@/lib/tenancy";
import { GET } from "./route";

/** A request of `kind` whose createdAt is set to `createdAt`, so date filters can be tested at their edges. */
async function requestAt(scope: Scope, createdAt: string, kind: "due_diligence" | "endorsement" = "due_diligence") {
  const request = await withScope(scope, () => raiseInformationRequest({ kind }));
  await db().informationRequest.update({ where: { id: request.id }, data: { createdAt: new Date(createdAt) } });
  return request.id;
}

const list = (apiKey: string, query = "", headers?: Record<string, string>) =>
  call(GET, { apiKey, path: `/v1/information_requests${query}`, headers });
const ids = (response: { body: { items: { id: string }[] } }) => response.body.items.map((item) => item.id);

describe("GET /v1/information_requests", () => {
  it("200: a page of the account's requests, newest first, in the contract's shape", async () => {
    const { apiKey, scope } = await platformWithKey();
    const older = await requestAt(scope, "2026-10-01T10:00:00.000Z");
    const newer = await requestAt(scope, "2026-10-02T10:00:00.000Z", "endorsement");
    const response = await list(apiKey);
    expect(response.status).toBe(200);
    expect(response.body.next).toBeNull();
    expect(ids(response)).toEqual([newer, older]);
    expect(response.body.items[0]).toEqual(
      raisedRequest({
        id: newer,
        kind: "endorsement",
        transferId: null,
        submissionId: null,
        createdAt: "2026-10-02T10:00:00.000Z",
      }),
    );
  });

  it("200 filtered by kind", async () => {
    const { apiKey, scope } = await platformWithKey();
    const diligence = await requestAt(scope, "2026-10-01T10:00:00.000Z", "due_diligence");
    const endorsement = await requestAt(scope, "2026-10-02T10:00:00.000Z", "endorsement");
    expect(ids(await list(apiKey, "?kind=due_diligence"))).toEqual([diligence]);
    expect(ids(await list(apiKey, "?kind=endorsement"))).toEqual([endorsement]);
  });

  it("200 filtered by status, one or several (the parameter repeated), combined with kind", async () => {
    const { apiKey, scope } = await platformWithKey();
    const requested = await requestAt(scope, "2026-10-01T10:00:00.000Z");
    const onReview = await requestAt(scope, "2026-10-02T10:00:00.000Z", "endorsement");
    const rejected = await requestAt(scope, "2026-10-03T10:00:00.000Z");
    await db().informationRequest.update({ where: { id: onReview }, data: { status: "on_review" } });
    await db().informationRequest.update({ where: { id: rejected }, data: { status: "rejected" } });
    expect(ids(await list(apiKey, "?status=on_review"))).toEqual([onReview]);
    expect(ids(await list(apiKey, "?status=on_review&status=requested"))).toEqual([onReview, requested]);
    expect(ids(await list(apiKey, "?status=requested&status=rejected&order=asc"))).toEqual([requested, rejected]);
    expect(ids(await list(apiKey, "?status=on_review&kind=due_diligence"))).toEqual([]);
    expect(ids(await list(apiKey, "?status=approved"))).toEqual([]);
    const first = await list(apiKey, "?status=requested&status=rejected&limit=1");
    expect(ids(first)).toEqual([rejected]);
    expect(ids(await list(apiKey, `?status=requested&status=rejected&limit=1&next=${first.body.next}`))).toEqual([
      requested,
    ]);
  });

  it("200 filtered by date: both bounds inclusive, a date-only endDate covering its whole UTC day", async () => {
    const { apiKey, scope } = await platformWithKey();
    const before = await requestAt(scope, "2026-10-31T23:59:59.999Z");
    const firstMoment = await requestAt(scope, "2026-11-01T00:00:00.000Z");
    const midday = await requestAt(scope, "2026-11-01T12:00:00.000Z");
    const lastMoment = await requestAt(scope, "2026-11-01T23:59:59.999Z");
    const after = await requestAt(scope, "2026-11-02T00:00:00.000Z");
    const asc = "&order=asc";
    expect(ids(await list(apiKey, `?startDate=2026-11-01&endDate=2026-11-01${asc}`))).toEqual([
      firstMoment,
      midday,
      lastMoment,
    ]);
    expect(ids(await list(apiKey, `?startDate=2026-11-01${asc}`))).toEqual([firstMoment, midday, lastMoment, after]);
    expect(ids(await list(apiKey, `?endDate=2026-11-01${asc}`))).toEqual([before, firstMoment, midday, lastMoment]);
    // Date-times are exact, inclusive bounds.
    expect(ids(await list(apiKey, `?startDate=2026-11-01T12:00:00.000Z&endDate=2026-11-02T00:00:00Z${asc}`))).toEqual([
      midday,
      lastMoment,
      after,
    ]);
    expect(ids(await list(apiKey, `?startDate=2026-11-01T12:00:00Z&endDate=2026-11-01T12:00:00Z`))).toEqual([midday]);
    // With an offset: 13:00+01:00 is 12:00Z.
    expect(
      ids(
        await list(
          apiKey,
          `?endDate=${encodeURIComponent("2026-11-01T13:00:00+01:00")}&startDate=2026-11-01T00:00:00.001Z${asc}`,
        ),
      ),
    ).toEqual([midday]);
  });

  it("200 with kind and dates combined", async () => {
    const { apiKey, scope } = await platformWithKey();
    await requestAt(scope, "2026-11-01T09:00:00.000Z", "due_diligence");
    const wanted = await requestAt(scope, "2026-11-01T10:00:00.000Z", "endorsement");
    await requestAt(scope, "2026-11-03T10:00:00.000Z", "endorsement");
    expect(ids(await list(apiKey, "?kind=endorsement&startDate=2026-11-01&endDate=2026-11-02"))).toEqual([wanted]);
  });

  it("200 paged with next/limit, in either order, with the filters kept across pages", async () => {
    const { apiKey, scope } = await platformWithKey();
    const created: string[] = [];
    for (let day = 1; day <= 5; day += 1)
      created.push(await requestAt(scope, `2026-11-0${day}T10:00:00.000Z`, "endorsement"));
    await requestAt(scope, "2026-11-03T11:00:00.000Z", "due_diligence");
    const first = await list(apiKey, "?kind=endorsement&limit=2");
    expect(ids(first)).toEqual([created[4], created[3]]);
    expect(first.body.next).toEqual(expect.any(String));
    const second = await list(apiKey, `?kind=endorsement&limit=2&next=${first.body.next}`);
    expect(ids(second)).toEqual([created[2], created[1]]);
    const third = await list(apiKey, `?kind=endorsement&limit=2&next=${second.body.next}`);
    expect(ids(third)).toEqual([created[0]]);
    expect(third.body.next).toBeNull();
    const ascending = await list(apiKey, "?kind=endorsement&limit=3&order=asc");
    expect(ids(ascending)).toEqual(created.slice(0, 3));
    expect(ids(await list(apiKey, `?kind=endorsement&limit=3&order=asc&next=${ascending.body.next}`))).toEqual(
      created.slice(3),
    );
  });

  it("200 acting for a sub-account with Service-Account-Id: its requests only", async () => {
    const { apiKey, account, scope } = await platformWithKey();
    const sub = await db().account.create({
      data: { id: newId("acct"), platformId: account.id, parentId: account.id, name: "Sub" },
    });
    const own = await requestAt(scope, "2026-11-01T10:00:00.000Z");
    const subs = await requestAt({ platformId: account.id, accountId: sub.id }, "2026-11-01T10:00:00.000Z");
    expect(ids(await list(apiKey))).toEqual([own]);
    expect(ids(await list(apiKey, "", { "service-account-id": sub.id }))).toEqual([subs]);
  });

  it("never lists another platform's requests", async () => {
    const mine = await platformWithKey();
    const theirs = await platformWithKey();
    await requestAt(theirs.scope, "2026-11-01T10:00:00.000Z");
    expect(ids(await list(mine.apiKey))).toEqual([]);
  });

  it("422 naming the field for an unknown kind, unparseable or impossible dates, and startDate after endDate", async () => {
    const { apiKey } = await platformWithKey();
    const cases: [string, string][] = [
      ["?kind=other", "kind"],
      ["?startDate=yesterday", "startDate"],
      ["?startDate=2026-02-30", "startDate"],
      ["?endDate=2026-11-01T25:00:00Z", "endDate"],
      ["?endDate=01/11/2026", "endDate"],
      ["?startDate=2026-11-02&endDate=2026-11-01", "startDate"],
      ["?startDate=2026-11-01T10:00:00.001Z&endDate=2026-11-01T10:00:00Z", "startDate"],
      ["?limit=0", "limit"],
      ["?status=open", "status"],
      ["?status=on_review&status=done", "status"],
      ["?status=", "status"],
      // A parameter that takes one value, repeated: refused rather than one of them silently kept.
      ["?kind=endorsement&kind=due_diligence", "kind"],
    ];
    for (const [query, field] of cases) {
      const response = await list(apiKey, query);
      expect(response.status, query).toBe(422);
      expect(response.body.error_code).toBe("err_validation");
      expect(Object.keys(response.body.details ?? {}), query).toEqual([field]);
    }
  });
});
