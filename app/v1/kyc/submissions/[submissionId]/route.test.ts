import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { acceptAgreement, createKycSubmission } from "@/lib/kyc/submissions";
import { platformWithKey, signedInEmployee, subAccountSubmission } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { withScope } from "@/lib/tenancy";
import { GET } from "./route";

const get = (submissionId: string, apiKey?: string, headers?: Record<string, string>) =>
  call(GET, { apiKey, params: { submissionId }, path: `/v1/kyc/submissions/${submissionId}`, headers });

const owners = [
  { type: "individual", country: "FR", roles: ["ubo", "director"], shareSize: 50, name: "Camille Martin" },
  { type: "business", country: "GB", roles: ["shareholder"], shareSize: 35, name: "Holding Ltd" },
] as const;

describe("GET /v1/kyc/submissions/{submissionId}", () => {
  it("200: the submission with its owners (largest share first), share total and accepted agreements (oldest first)", async () => {
    const { apiKey, scope } = await platformWithKey();
    const submission = await withScope(scope, () =>
      createKycSubmission({
        type: "business",
        beneficiaries: owners.map((owner) => ({ ...owner, roles: [...owner.roles] })),
      }),
    );
    const terms = await withScope(scope, () =>
      acceptAgreement({ submissionId: submission.id, documentSetId: "terms-v1", ipAddress: "203.0.113.7" }),
    );
    await db().agreement.updateMany({
      where: { documentSetId: "terms-v1" },
      data: { acceptedAt: new Date("2026-11-01T10:00:00.000Z") },
    });
    await withScope(scope, () => acceptAgreement({ submissionId: submission.id, documentSetId: "privacy-v2" }));
    const response = await get(submission.id, apiKey);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: submission.id,
      type: "business",
      status: "submitted",
      createdAt: submission.createdAt.toISOString(),
      updatedAt: submission.updatedAt.toISOString(),
      beneficiaryCount: 2,
      totalShare: 85,
      beneficiaries: [
        {
          id: expect.stringMatching(/^ben_/),
          name: "Camille Martin",
          type: "individual",
          country: "FR",
          roles: ["ubo", "director"],
          shareSize: 50,
        },
        {
          id: expect.stringMatching(/^ben_/),
          name: "Holding Ltd",
          type: "business",
          country: "GB",
          roles: ["shareholder"],
          shareSize: 35,
        },
      ],
      agreements: [
        {
          submissionId: submission.id,
          documentSetId: "terms-v1",
          ipAddress: "203.0.113.7",
          acceptedAt: "2026-11-01T10:00:00.000Z",
        },
        { submissionId: submission.id, documentSetId: "privacy-v2", ipAddress: null, acceptedAt: expect.any(String) },
      ],
    });
    expect(terms.documentSetId).toBe("terms-v1");
  });

  it("200 with empty lists for a submission without owners or agreements, by an employee session", async () => {
    const { session, account } = await signedInEmployee();
    const submission = await withScope({ platformId: account.id, accountId: account.id }, () =>
      createKycSubmission({ type: "individual" }),
    );
    const response = await call(GET, {
      session,
      params: { submissionId: submission.id },
      path: `/v1/kyc/submissions/${submission.id}`,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ beneficiaryCount: 0, totalShare: 0, beneficiaries: [], agreements: [] });
  });

  it("200 for a sub-account's submission with Service-Account-Id, 404 without it", async () => {
    const { apiKey, sub, submission } = await subAccountSubmission();
    expect((await get(submission.id, apiKey)).status).toBe(404);
    const acting = await get(submission.id, apiKey, { "service-account-id": sub.id });
    expect(acting.status).toBe(200);
    expect(acting.body).toMatchObject({ id: submission.id, totalShare: 100 });
  });

  it("404 for an unknown submission, a malformed id, and another platform's submission", async () => {
    const mine = await platformWithKey();
    const theirs = await platformWithKey();
    const submission = await withScope(theirs.scope, () => createKycSubmission({ type: "individual" }));
    for (const id of ["sub_doesnotexist", "sub_UPPER", "ir_abc", submission.id]) {
      const response = await get(id, mine.apiKey);
      expect(response.status, id).toBe(404);
      expect(response.body.error_code).toBe("err_not_found");
    }
    expect((await get(submission.id, theirs.apiKey)).status).toBe(200);
  });
});
