import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { createKycSubmission } from "@/lib/kyc/submissions";
import { bareTransferIn, platformWithKey, raisedRequest, signedInEmployee } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { withScope } from "@/lib/tenancy";
import { POST } from "./route";

const raise = (options: Parameters<typeof call>[1]) =>
  call(POST, { method: "POST", path: "/v1/sandbox/information_requests", ...options });

describe("POST /v1/sandbox/information_requests", () => {
  it("201: a requested request linked to the account's transfer and submission, audited", async () => {
    const { apiKey, scope, key } = await platformWithKey();
    const transfer = await bareTransferIn(scope);
    const submission = await withScope(scope, () => createKycSubmission({ type: "individual" }));
    const response = await raise({
      apiKey,
      body: { kind: "due_diligence", transferId: transfer.id, submissionId: submission.id },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual(
      raisedRequest({
        id: expect.stringMatching(/^ir_[a-z0-9]{20}$/),
        kind: "due_diligence",
        transferId: transfer.id,
        submissionId: submission.id,
        createdAt: expect.any(String),
      }),
    );
    const row = await db().informationRequest.findUniqueOrThrow({ where: { id: response.body.id } });
    expect(row.accountId).toBe(scope.accountId);
    const audit = await db().auditEvent.findFirstOrThrow({ where: { action: "sandbox.information_request.raise" } });
    expect(audit).toMatchObject({ actorId: key.id, targetId: response.body.id, status: 201 });
  });

  it("201 with neither link, by an employee session too (no TOTP code)", async () => {
    const { session } = await signedInEmployee();
    const response = await raise({ session, body: { kind: "endorsement" } });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ transferId: null, submissionId: null, status: "requested" });
  });

  it("201 for a sub-account with Service-Account-Id, where its own transfer is found", async () => {
    const { apiKey, account } = await platformWithKey();
    const sub = await db().account.create({
      data: { id: newId("acct"), platformId: account.id, parentId: account.id, name: "Sub" },
    });
    const transfer = await bareTransferIn({ platformId: account.id, accountId: sub.id });
    const body = { kind: "endorsement", transferId: transfer.id };
    expect((await raise({ apiKey, body })).status).toBe(404);
    const response = await raise({ apiKey, body, headers: { "service-account-id": sub.id } });
    expect(response.status).toBe(201);
    expect((await db().informationRequest.findUniqueOrThrow({ where: { id: response.body.id } })).accountId).toBe(
      sub.id,
    );
  });

  it("404 naming the transfer or submission that is unknown or another platform's", async () => {
    const mine = await platformWithKey();
    const theirs = await platformWithKey();
    const transfer = await bareTransferIn(theirs.scope);
    const submission = await withScope(theirs.scope, () => createKycSubmission({ type: "business" }));
    for (const [body, what] of [
      [{ kind: "endorsement", transferId: transfer.id }, "Transfer"],
      [{ kind: "endorsement", transferId: "tr_doesnotexist" }, "Transfer"],
      [{ kind: "endorsement", submissionId: submission.id }, "KYC submission"],
      [{ kind: "endorsement", submissionId: "sub_doesnotexist" }, "KYC submission"],
    ] as const) {
      const response = await raise({ apiKey: mine.apiKey, body });
      expect(response.status).toBe(404);
      expect(response.body.message).toContain(what);
    }
    expect(await db().informationRequest.count({ where: { accountId: mine.account.id } })).toBe(0);
  });

  it("422 for a missing or unknown kind and malformed ids", async () => {
    const { apiKey } = await platformWithKey();
    const cases: [object, string][] = [
      [{}, "kind"],
      [{ kind: "audit" }, "kind"],
      [{ kind: "endorsement", transferId: "rcp_123" }, "transferId"],
      [{ kind: "endorsement", submissionId: 42 }, "submissionId"],
    ];
    for (const [body, field] of cases) {
      const response = await raise({ apiKey, body });
      expect(response.status).toBe(422);
      expect(Object.keys(response.body.details ?? {})).toEqual([field]);
    }
  });
});
