import { describe, expect, it } from "vitest";
import { createKycSubmission } from "@/lib/kyc/submissions";
import { platformWithKey, subAccountSubmission } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { withScope } from "@/lib/tenancy";
import { GET } from "./route";

const list = (submissionId: string, apiKey?: string, headers?: Record<string, string>) =>
  call(GET, { apiKey, params: { submissionId }, path: `/v1/kyc/submissions/${submissionId}/beneficiaries`, headers });

describe("GET /v1/kyc/submissions/{submissionId}/beneficiaries", () => {
  it("200: a plain array of the submission's owners, largest share first", async () => {
    const { apiKey, scope } = await platformWithKey();
    const submission = await withScope(scope, () =>
      createKycSubmission({
        type: "business",
        beneficiaries: [
          { type: "individual", country: "de", roles: ["director"], shareSize: 0, name: "Dana Director" },
          { type: "individual", country: "FR", roles: ["ubo", "shareholder"], shareSize: 62.5 },
          { type: "business", country: "GB", roles: ["shareholder"], shareSize: 37.5, name: "Holding Ltd" },
        ],
      }),
    );
    await withScope(scope, () =>
      createKycSubmission({
        type: "business",
        beneficiaries: [{ type: "individual", country: "IT", roles: ["ubo"], shareSize: 100 }],
      }),
    );
    const response = await list(submission.id, apiKey);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      {
        id: expect.stringMatching(/^ben_[a-z0-9]{20}$/),
        name: null,
        type: "individual",
        country: "FR",
        roles: ["ubo", "shareholder"],
        shareSize: 62.5,
      },
      {
        id: expect.any(String),
        name: "Holding Ltd",
        type: "business",
        country: "GB",
        roles: ["shareholder"],
        shareSize: 37.5,
      },
      {
        id: expect.any(String),
        name: "Dana Director",
        type: "individual",
        country: "DE",
        roles: ["director"],
        shareSize: 0,
      },
    ]);
  });

  it("200 with an empty array for a submission without owners", async () => {
    const { apiKey, scope } = await platformWithKey();
    const submission = await withScope(scope, () => createKycSubmission({ type: "individual" }));
    const response = await list(submission.id, apiKey);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it("200 for a sub-account's submission with Service-Account-Id, 404 without it", async () => {
    const { apiKey, sub, submission } = await subAccountSubmission();
    expect((await list(submission.id, apiKey)).status).toBe(404);
    const acting = await list(submission.id, apiKey, { "service-account-id": sub.id });
    expect(acting.status).toBe(200);
    expect(acting.body).toHaveLength(1);
  });

  it("404 for an unknown submission, a malformed id, and another platform's submission", async () => {
    const mine = await platformWithKey();
    const theirs = await platformWithKey();
    const submission = await withScope(theirs.scope, () =>
      createKycSubmission({
        type: "business",
        beneficiaries: [{ type: "individual", country: "NL", roles: ["ubo"], shareSize: 100 }],
      }),
    );
    for (const id of ["sub_doesnotexist", "sub_UPPER", submission.id]) {
      const response = await list(id, mine.apiKey);
      expect(response.status, id).toBe(404);
      expect(response.body.error_code).toBe("err_not_found");
    }
  });
});
