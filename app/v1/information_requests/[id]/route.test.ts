import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { raiseInformationRequest } from "@/lib/information-requests/information-requests";
import { createKycSubmission } from "@/lib/kyc/submissions";
import { platformWithKey, raisedRequest } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { withScope } from "@/lib/tenancy";
import { GET } from "./route";

const get = (apiKey: string, id: string, headers?: Record<string, string>) =>
  call(GET, { apiKey, params: { id }, path: `/v1/information_requests/${id}`, headers });

describe("GET /v1/information_requests/{id}", () => {
  it("200 with the linked KYC submission", async () => {
    const { apiKey, scope } = await platformWithKey();
    const submission = await withScope(scope, () => createKycSubmission({ type: "business", beneficiaries: [] }));
    const request = await withScope(scope, () =>
      raiseInformationRequest({ kind: "due_diligence", submissionId: submission.id }),
    );
    const response = await get(apiKey, request.id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ...raisedRequest({
        id: request.id,
        kind: "due_diligence",
        transferId: null,
        submissionId: submission.id,
        createdAt: request.createdAt.toISOString(),
      }),
      updatedAt: request.updatedAt.toISOString(),
      reviewer: null,
      decidedBy: null,
      submission: {
        id: submission.id,
        type: "business",
        status: "submitted",
        createdAt: submission.createdAt.toISOString(),
        updatedAt: submission.updatedAt.toISOString(),
      },
    });
  });

  it("200 with submission null when the request concerns no submission", async () => {
    const { apiKey, scope } = await platformWithKey();
    const request = await withScope(scope, () => raiseInformationRequest({ kind: "endorsement" }));
    const response = await get(apiKey, request.id);
    expect(response.status).toBe(200);
    expect(response.body.submission).toBeNull();
    expect(response.body.submissionId).toBeNull();
  });

  it("200 for a sub-account's request with Service-Account-Id, 404 without it", async () => {
    const { apiKey, account } = await platformWithKey();
    const sub = await db().account.create({
      data: { id: newId("acct"), platformId: account.id, parentId: account.id, name: "Sub" },
    });
    const request = await withScope({ platformId: account.id, accountId: sub.id }, () =>
      raiseInformationRequest({ kind: "endorsement" }),
    );
    expect((await get(apiKey, request.id, { "service-account-id": sub.id })).status).toBe(200);
    expect((await get(apiKey, request.id)).status).toBe(404);
  });

  it("404 for an unknown id, a malformed id, and another platform's request", async () => {
    const mine = await platformWithKey();
    const theirs = await platformWithKey();
    const request = await withScope(theirs.scope, () => raiseInformationRequest({ kind: "endorsement" }));
    for (const id of ["ir_doesnotexist", "not-an-id", request.id]) {
      const response = await get(mine.apiKey, id);
      expect(response.status, id).toBe(404);
      expect(response.body.error_code).toBe("err_not_found");
    }
    expect((await get(theirs.apiKey, request.id)).status).toBe(200);
  });
});
