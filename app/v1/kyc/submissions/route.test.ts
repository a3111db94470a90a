import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { createKycSubmission } from "@/lib/kyc/submissions";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { withScope, type Scope } from "@/lib/tenancy";
import { GET } from "./route";

/** A submission whose createdAt is set to `createdAt`, so the order is certain. */
async function submissionAt(scope: Scope, createdAt: string, shares: number[] = []) {
  const submission = await withScope(scope, () =>
    createKycSubmission({
      type: "business",
      beneficiaries: shares.map((shareSize) => ({ type: "individual", country: "DE", roles: ["ubo"], shareSize })),
    }),
  );
  await db().kycSubmission.update({ where: { id: submission.id }, data: { createdAt: new Date(createdAt) } });
  return submission.id;
}

const list = (apiKey: string, query = "", headers?: Record<string, string>) =>
  call(GET, { apiKey, path: `/v1/kyc/submissions${query}`, headers });
const ids = (response: { body: { items: { id: string }[] } }) => response.body.items.map((item) => item.id);

describe("GET /v1/kyc/submissions", () => {
  it("200: a page of the account's submissions, newest first, with owner counts and share totals", async () => {
    const { apiKey, scope } = await platformWithKey();
    const complete = await submissionAt(scope, "2026-10-01T10:00:00.000Z", [33.33, 33.33, 33.34]);
    const partial = await submissionAt(scope, "2026-10-02T10:00:00.000Z", [60, 25]);
    const none = await submissionAt(scope, "2026-10-03T10:00:00.000Z");
    const response = await list(apiKey);
    expect(response.status).toBe(200);
    expect(response.body.next).toBeNull();
    expect(ids(response)).toEqual([none, partial, complete]);
    expect(response.body.items[1]).toEqual({
      id: partial,
      type: "business",
      status: "submitted",
      createdAt: "2026-10-02T10:00:00.000Z",
      updatedAt: expect.any(String),
      beneficiaryCount: 2,
      totalShare: 85,
    });
    expect(response.body.items[0]).toMatchObject({ beneficiaryCount: 0, totalShare: 0 });
    // 33.33 + 33.33 + 33.34 is exactly 100, not 99.99999999999999.
    expect(response.body.items[2]).toMatchObject({ beneficiaryCount: 3, totalShare: 100 });
  });

  it("200 paged with next/limit, in either order", async () => {
    const { apiKey, scope } = await platformWithKey();
    const created: string[] = [];
    for (let day = 1; day <= 5; day += 1) created.push(await submissionAt(scope, `2026-11-0${day}T10:00:00.000Z`));
    const first = await list(apiKey, "?limit=2");
    expect(ids(first)).toEqual([created[4], created[3]]);
    const second = await list(apiKey, `?limit=2&next=${first.body.next}`);
    expect(ids(second)).toEqual([created[2], created[1]]);
    const third = await list(apiKey, `?limit=2&next=${second.body.next}`);
    expect(ids(third)).toEqual([created[0]]);
    expect(third.body.next).toBeNull();
    const ascending = await list(apiKey, "?limit=3&order=asc");
    expect(ids(ascending)).toEqual(created.slice(0, 3));
    expect(ids(await list(apiKey, `?limit=3&order=asc&next=${ascending.body.next}`))).toEqual(created.slice(3));
  });

  it("200 by an employee session", async () => {
    const { session, account } = await signedInEmployee();
    const id = await submissionAt({ platformId: account.id, accountId: account.id }, "2026-11-01T10:00:00.000Z", [100]);
    const response = await call(GET, { session, path: "/v1/kyc/submissions" });
    expect(response.status).toBe(200);
    expect(ids(response)).toEqual([id]);
  });

  it("200 acting for a sub-account with Service-Account-Id: its submissions only", async () => {
    const { apiKey, account, scope } = await platformWithKey();
    const sub = await db().account.create({
      data: { id: newId("acct"), platformId: account.id, parentId: account.id, name: "Sub" },
    });
    const own = await submissionAt(scope, "2026-11-01T10:00:00.000Z");
    const subs = await submissionAt({ platformId: account.id, accountId: sub.id }, "2026-11-01T10:00:00.000Z", [50]);
    expect(ids(await list(apiKey))).toEqual([own]);
    expect(ids(await list(apiKey, "", { "service-account-id": sub.id }))).toEqual([subs]);
  });

  it("never lists another platform's submissions", async () => {
    const mine = await platformWithKey();
    const theirs = await platformWithKey();
    await submissionAt(theirs.scope, "2026-11-01T10:00:00.000Z", [100]);
    expect(ids(await list(mine.apiKey))).toEqual([]);
  });
});
