import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { createKycSubmission } from "@/lib/kyc/submissions";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { withScope, type Scope } from "@/lib/tenancy";
import { POST } from "./route";

const submissionIn = (scope: Scope) => withScope(scope, () => createKycSubmission({ type: "individual" }));

const accept = (submissionId: string, options: Parameters<typeof call>[1]) =>
  call(POST, {
    method: "POST",
    params: { submissionId },
    path: `/v1/kyc/submissions/${submissionId}/agreements`,
    ...options,
  });

describe("POST /v1/kyc/submissions/{submissionId}/agreements", () => {
  it("201: the acceptance with its normalised IP address, stored and audited", async () => {
    const { apiKey, scope, key } = await platformWithKey();
    const submission = await submissionIn(scope);
    const response = await accept(submission.id, {
      apiKey,
      body: { documentSetId: "terms-2026.11:v2", ipAddress: "::ffff:203.0.113.7" },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      submissionId: submission.id,
      documentSetId: "terms-2026.11:v2",
      ipAddress: "203.0.113.7",
      acceptedAt: expect.any(String),
    });
    expect(Math.abs(Date.parse(response.body.acceptedAt) - Date.now())).toBeLessThan(5_000);
    const row = await db().agreement.findFirstOrThrow({ where: { submissionId: submission.id } });
    expect(row).toMatchObject({
      accountId: scope.accountId,
      documentSetId: "terms-2026.11:v2",
      ipAddress: "203.0.113.7",
    });
    const audit = await db().auditEvent.findFirstOrThrow({ where: { action: "kyc.accept_agreement" } });
    expect(audit).toMatchObject({ actorId: key.id, targetId: submission.id, status: 201 });
    expect(audit.details).toEqual({ documentSetId: "terms-2026.11:v2" });
  });

  it("201 without an IP address (null), with IPv6 in canonical form, and by an employee session", async () => {
    const { apiKey, scope } = await platformWithKey();
    const submission = await submissionIn(scope);
    const without = await accept(submission.id, { apiKey, body: { documentSetId: "privacy" } });
    expect(without.status).toBe(201);
    expect(without.body.ipAddress).toBeNull();
    const v6 = await accept(submission.id, {
      apiKey,
      body: { documentSetId: "terms", ipAddress: "2001:DB8:0:0:0:0:0:1" },
    });
    expect(v6.body.ipAddress).toBe("2001:db8::1");
    const staff = await signedInEmployee();
    const own = await submissionIn({ platformId: staff.account.id, accountId: staff.account.id });
    expect((await accept(own.id, { session: staff.session, body: { documentSetId: "terms" } })).status).toBe(201);
  });

  it("201 for a sub-account's submission with Service-Account-Id, 404 without it", async () => {
    const { apiKey, account } = await platformWithKey();
    const sub = await db().account.create({
      data: { id: newId("acct"), platformId: account.id, parentId: account.id, name: "Sub" },
    });
    const submission = await submissionIn({ platformId: account.id, accountId: sub.id });
    expect((await accept(submission.id, { apiKey, body: { documentSetId: "terms" } })).status).toBe(404);
    const response = await accept(submission.id, {
      apiKey,
      body: { documentSetId: "terms" },
      headers: { "service-account-id": sub.id },
    });
    expect(response.status).toBe(201);
  });

  it("404 for an unknown submission, a malformed id, and another platform's submission", async () => {
    const mine = await platformWithKey();
    const theirs = await platformWithKey();
    const submission = await submissionIn(theirs.scope);
    for (const id of ["sub_doesnotexist", "ir_abc", submission.id]) {
      const response = await accept(id, { apiKey: mine.apiKey, body: { documentSetId: "terms" } });
      expect(response.status, id).toBe(404);
      expect(response.body.error_code).toBe("err_not_found");
    }
    expect(await db().agreement.count({ where: { submissionId: submission.id } })).toBe(0);
  });

  it("409 when the same document set is accepted twice for a submission; another submission may accept it", async () => {
    const { apiKey, scope } = await platformWithKey();
    const submission = await submissionIn(scope);
    const other = await submissionIn(scope);
    expect((await accept(submission.id, { apiKey, body: { documentSetId: "terms" } })).status).toBe(201);
    const again = await accept(submission.id, { apiKey, body: { documentSetId: "terms", ipAddress: "192.0.2.1" } });
    expectError(again, 409, "err_conflict");
    expect(again.body.message).toContain("terms");
    expect((await accept(other.id, { apiKey, body: { documentSetId: "terms" } })).status).toBe(201);
  });

  it("409 for the loser of two concurrent acceptances of one document set", async () => {
    const { apiKey, scope } = await platformWithKey();
    const submission = await submissionIn(scope);
    const body = { documentSetId: "race" };
    const responses = await Promise.all([
      accept(submission.id, { apiKey, body }),
      accept(submission.id, { apiKey, body }),
    ]);
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
    expect(responses.find((response) => response.status === 409)!.body.message).toContain("race");
  });

  it("422 for a missing or malformed documentSetId and an invalid ipAddress", async () => {
    const { apiKey, scope } = await platformWithKey();
    const submission = await submissionIn(scope);
    const cases: [object, string][] = [
      [{}, "documentSetId"],
      [{ documentSetId: "" }, "documentSetId"],
      [{ documentSetId: "has space" }, "documentSetId"],
      [{ documentSetId: "x".repeat(129) }, "documentSetId"],
      [{ documentSetId: "terms", ipAddress: "256.1.1.1" }, "ipAddress"],
      [{ documentSetId: "terms", ipAddress: "010.0.0.1" }, "ipAddress"],
      [{ documentSetId: "terms", ipAddress: "localhost" }, "ipAddress"],
      [{ documentSetId: "terms", ipAddress: "10.0.0.0/8" }, "ipAddress"],
      [{ documentSetId: "terms", ipAddress: 167772161 }, "ipAddress"],
    ];
    for (const [body, field] of cases) {
      const response = await accept(submission.id, { apiKey, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(response.body.details ?? {})).toEqual([field]);
    }
    expect(await db().agreement.count({ where: { submissionId: submission.id } })).toBe(0);
  });
});
