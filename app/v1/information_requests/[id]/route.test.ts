import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnv } from "@/lib/env";
import { lastAuditEvent } from "@/lib/testing/audit";
import { apiKeyFor, signedInEmployee } from "@/lib/testing/factories";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { raiseInformationRequest } from "@/lib/information-requests/information-requests";
import { createKycSubmission } from "@/lib/kyc/submissions";
import { platformWithKey, raisedRequest } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { withScope } from "@/lib/tenancy";
import { GET, POST } from "./route";

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

/** An owner's session, a compliance officer, and a request of their platform. */
async function platformWithRequest() {
  const owner = await signedInEmployee();
  const officer = await signedInEmployee({ role: "compliance", platform: owner.account });
  const scope = { platformId: owner.account.id, accountId: owner.account.id };
  const request = await withScope(scope, () => raiseInformationRequest({ kind: "due_diligence" }));
  return { owner, officer, scope, request };
}

const update = (caller: { session?: string; apiKey?: string }, id: string, body: unknown) =>
  call(POST, { method: "POST", ...caller, params: { id }, body });

const timelineOf = (id: string) =>
  db().informationRequestEvent.findMany({
    where: { informationRequestId: id },
    orderBy: [{ at: "asc" }, { id: "asc" }],
  });

describe("POST /v1/information_requests/{id}", () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    process.env.SMTP_URL = sink.url;
    process.env.MAIL_FROM = "Compliance <no-reply@example.com>";
    resetEnv();
  });
  afterAll(async () => {
    delete process.env.SMTP_URL;
    delete process.env.MAIL_FROM;
    resetEnv();
    await sink.close();
  });

  it("200 assigns and sets the priority: timeline entries, an audit record with before and after, a mail", async () => {
    const { owner, officer, request } = await platformWithRequest();
    const response = await update({ session: owner.session }, request.id, {
      assigneeId: officer.employee.id,
      priority: "urgent",
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: request.id, assigneeId: officer.employee.id, priority: "urgent" });
    // One change, one moment: the two entries share `at`, so their order is the ids'.
    expect(await timelineOf(request.id)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: "assigned",
          actorType: "employee",
          actorId: owner.employee.id,
          data: { assigneeId: officer.employee.id, previousAssigneeId: null },
        }),
        expect.objectContaining({ type: "priority_changed", data: { priority: "urgent", previousPriority: "normal" } }),
      ]),
    );
    expect(await timelineOf(request.id)).toHaveLength(2);
    const audit = await lastAuditEvent({ action: "information_request.update", targetId: request.id });
    expect(audit).toMatchObject({ actorId: owner.employee.id, outcome: "success", status: 200 });
    expect(audit.details).toEqual({
      assigneeId: officer.employee.id,
      priority: "urgent",
      before: { assigneeId: null, priority: "normal" },
      after: { assigneeId: officer.employee.id, priority: "urgent" },
    });
    const mail = await sink.waitFor(officer.email, /assigned to you/);
    expect(mail.text).toContain(`/information-requests/${request.id}`);
    expect(mail.text).toContain(owner.employee.name);
  });

  it("200 unassigns with null; a repeat of the current values changes nothing and adds no entry", async () => {
    const { owner, officer, request } = await platformWithRequest();
    await update({ session: owner.session }, request.id, { assigneeId: officer.employee.id });
    const same = await update({ session: owner.session }, request.id, {
      assigneeId: officer.employee.id,
      priority: "normal",
    });
    expect(same.status).toBe(200);
    expect(await timelineOf(request.id)).toHaveLength(1);
    const cleared = await update({ session: owner.session }, request.id, { assigneeId: null });
    expect(cleared.body).toMatchObject({ assigneeId: null });
    expect((await timelineOf(request.id)).at(-1)).toMatchObject({
      type: "assigned",
      data: { assigneeId: null, previousAssigneeId: officer.employee.id },
    });
  });

  it("no mail to whoever assigns a request to themselves; an API key's assignment is mailed, naming the key", async () => {
    const { owner, officer, scope } = await platformWithRequest();
    const mine = await withScope(scope, () => raiseInformationRequest({ kind: "endorsement" }));
    expect((await update({ session: officer.session }, mine.id, { assigneeId: officer.employee.id })).status).toBe(200);
    const key = await apiKeyFor(owner.account.id);
    const byKey = await withScope(scope, () => raiseInformationRequest({ kind: "endorsement" }));
    expect((await update({ apiKey: key.secret }, byKey.id, { assigneeId: officer.employee.id })).status).toBe(200);
    // Sent before the answer: the sink holds every mail of both requests by now.
    const mails = sink.received.filter((mail) => mail.to.includes(officer.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(byKey.id);
    expect(mails[0]!.text).toContain(`API key ${key.id}`);
  });

  it("422 details.assigneeId for an employee who may not decide, an inactive one, another platform's, an unknown one", async () => {
    const { owner, request } = await platformWithRequest();
    const viewer = await signedInEmployee({ role: "viewer", platform: owner.account });
    const developer = await signedInEmployee({ role: "developer", platform: owner.account });
    const gone = await signedInEmployee({ role: "compliance", platform: owner.account });
    await db().employee.update({ where: { id: gone.employee.id }, data: { status: "deactivated" } });
    const stranger = await signedInEmployee({ role: "compliance" });
    for (const assigneeId of [
      viewer.employee.id,
      developer.employee.id,
      gone.employee.id,
      stranger.employee.id,
      "emp_unknown",
      "key_1",
      3,
    ]) {
      const response = await update({ session: owner.session }, request.id, { assigneeId });
      expect(response.status, String(assigneeId)).toBe(422);
      expect(Object.keys(response.body.details ?? {}), String(assigneeId)).toEqual(["assigneeId"]);
    }
    expect(await timelineOf(request.id)).toHaveLength(0);
  });

  it("422 for an empty body, an unknown priority", async () => {
    const { owner, request } = await platformWithRequest();
    const empty = await update({ session: owner.session }, request.id, {});
    expect(empty.status).toBe(422);
    const priority = await update({ session: owner.session }, request.id, { priority: "critical" });
    expect(priority.status).toBe(422);
    expect(Object.keys(priority.body.details ?? {})).toEqual(["priority"]);
  });

  it("404 for another platform's request and an unknown one; 403 for a role or a key without information_requests:write", async () => {
    const { owner, officer, request } = await platformWithRequest();
    const theirs = await platformWithRequest();
    for (const id of [theirs.request.id, "ir_unknown"]) {
      const response = await update({ session: owner.session }, id, { priority: "high" });
      expect(response.status, id).toBe(404);
    }
    expect((await db().informationRequest.findUniqueOrThrow({ where: { id: theirs.request.id } })).priority).toBe(
      "normal",
    );
    const viewer = await signedInEmployee({ role: "viewer", platform: owner.account });
    const refused = await update({ session: viewer.session }, request.id, { assigneeId: officer.employee.id });
    expect(refused.status).toBe(403);
    expect(refused.body.details).toEqual({ permission: "information_requests:write" });
    const readOnly = await apiKeyFor(owner.account.id, { permissions: ["information_requests:read"] });
    expect((await update({ apiKey: readOnly.secret }, request.id, { priority: "high" })).status).toBe(403);
    expect(await timelineOf(request.id)).toHaveLength(0);
  });
});
