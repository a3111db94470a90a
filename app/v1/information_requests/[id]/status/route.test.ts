import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import {
  raiseInformationRequest,
  updateInformationRequestStatus,
} from "@/lib/information-requests/information-requests";
import type { InformationRequestStatus } from "@/lib/information-requests/schemas";
import { apiKeyFor, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { withScope } from "@/lib/tenancy";
import { GET as getRequest } from "@/app/v1/information_requests/[id]/route";
import { POST } from "./route";

/** A signed-in employee and a request of their platform, in `status`. */
async function staffWithRequest(status: InformationRequestStatus = "requested") {
  const staff = await signedInEmployee();
  const scope = { platformId: staff.account.id, accountId: staff.account.id };
  const request = await withScope(scope, () => raiseInformationRequest({ kind: "due_diligence" }));
  if (status !== "requested") await db().informationRequest.update({ where: { id: request.id }, data: { status } });
  return { ...staff, scope, request };
}

const REASON = "No documents arrived within the deadline.";
/** Moves a request as staff would, giving the reason the decisions that need one require. */
const move = (session: string, id: string, status: unknown, headers?: Record<string, string>) =>
  call(POST, {
    method: "POST",
    session,
    params: { id },
    body: {
      status,
      ...(status === "rejected" || status === "expired" ? { reasonCode: "no_response", reason: REASON } : {}),
    },
    headers,
  });

const statusOf = async (id: string) => (await db().informationRequest.findUniqueOrThrow({ where: { id } })).status;

describe("POST /v1/information_requests/{id}/status", () => {
  const legal: [InformationRequestStatus, InformationRequestStatus][] = [
    ["requested", "on_review"],
    ["requested", "expired"],
    ["on_review", "approved"],
    ["on_review", "rejected"],
    ["on_review", "expired"],
  ];
  for (const [from, to] of legal) {
    it(`200 ${from} -> ${to}, with updatedAt moved on and an audit record`, async () => {
      const { session, request, employee } = await staffWithRequest(from);
      await db().informationRequest.update({
        where: { id: request.id },
        data: { updatedAt: new Date("2026-01-01T00:00:00Z") },
      });
      const response = await move(session, request.id, to);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        id: request.id,
        status: to,
        kind: "due_diligence",
        createdAt: request.createdAt.toISOString(),
      });
      expect(Math.abs(Date.parse(response.body.updatedAt) - Date.now())).toBeLessThan(5_000);
      expect(await statusOf(request.id)).toBe(to);
      const audit = await db().auditEvent.findFirstOrThrow({
        where: { action: "information_request.update_status", targetId: request.id },
      });
      expect(audit).toMatchObject({ actorId: employee.id, outcome: "success", status: 200 });
      expect(audit.details).toEqual(
        to === "rejected" || to === "expired"
          ? { status: to, reasonCode: "no_response", reason: REASON }
          : { status: to },
      );
    });
  }

  it("200 through the whole life: requested -> on_review -> approved", async () => {
    const { session, request } = await staffWithRequest();
    expect((await move(session, request.id, "on_review")).status).toBe(200);
    expect((await move(session, request.id, "approved")).status).toBe(200);
    expect(await statusOf(request.id)).toBe("approved");
  });

  const illegal: [InformationRequestStatus, InformationRequestStatus][] = [
    ["requested", "approved"],
    ["requested", "rejected"],
    ["requested", "requested"],
    ["on_review", "on_review"],
    ["on_review", "requested"],
    ["approved", "rejected"],
    ["approved", "on_review"],
    ["approved", "approved"],
    ["rejected", "approved"],
    ["rejected", "expired"],
    ["expired", "requested"],
    ["expired", "on_review"],
  ];
  for (const [from, to] of illegal) {
    it(`409 ${from} -> ${to}, naming both states, nothing changed`, async () => {
      const { session, request } = await staffWithRequest(from);
      const response = await move(session, request.id, to);
      expectError(response, 409, "err_conflict");
      expect(response.body.message).toContain(`from ${from} to ${to}`);
      expect(await statusOf(request.id)).toBe(from);
    });
  }

  it("records who started the review and who decided, when and why; the detail names them", async () => {
    const { session, request, employee, scope } = await staffWithRequest();
    const started = await move(session, request.id, "on_review");
    expect(started.body).toMatchObject({
      reviewerId: employee.id,
      reviewStartedAt: expect.any(String),
      decidedById: null,
      decidedAt: null,
      decisionReason: null,
    });
    const decided = await move(session, request.id, "rejected");
    expect(decided.body).toMatchObject({
      status: "rejected",
      reviewerId: employee.id,
      decidedById: employee.id,
      decidedAt: expect.any(String),
      decisionReason: REASON,
      decisionReasonCode: "no_response",
    });
    const detail = await call(getRequest, { session, params: { id: request.id } });
    expect(detail.body).toMatchObject({
      reviewer: { id: employee.id, name: employee.name },
      decidedBy: { id: employee.id, name: employee.name },
      decisionReason: REASON,
    });
    expect(scope.accountId).toBe(employee.accountId);
  });

  it.each(["rejected", "expired"] as const)(
    "422 without a reason code for %s, or with `other` and no words, nothing changed; an approval may give either",
    async (status) => {
      const { session, request } = await staffWithRequest("on_review");
      const cases: [object, string][] = [
        [{ status }, "reasonCode"],
        [{ status, reason: "Words alone are no longer enough." }, "reasonCode"],
        [{ status, reasonCode: "because" }, "reasonCode"],
        [{ status, reasonCode: "other" }, "reason"],
        [{ status, reasonCode: "other", reason: "   " }, "reason"],
        [{ status, reasonCode: "sanctions_match", reason: "x".repeat(2001) }, "reason"],
      ];
      for (const [body, field] of cases) {
        const response = await call(POST, { method: "POST", session, params: { id: request.id }, body });
        expect(response.status, JSON.stringify(body)).toBe(422);
        expect(Object.keys(response.body.details ?? {}), JSON.stringify(body)).toEqual([field]);
      }
      expect(await statusOf(request.id)).toBe("on_review");
      const coded = await call(POST, {
        method: "POST",
        session,
        params: { id: request.id },
        body: { status, reasonCode: "identity_mismatch" },
      });
      expect(coded.status).toBe(200);
      expect(coded.body).toMatchObject({ status, decisionReasonCode: "identity_mismatch", decisionReason: null });
      const other = await staffWithRequest("on_review");
      const approved = await call(POST, {
        method: "POST",
        session: other.session,
        params: { id: other.request.id },
        body: { status: "approved", reason: "Documents verified." },
      });
      expect(approved.body).toMatchObject({
        status: "approved",
        decisionReason: "Documents verified.",
        decisionReasonCode: null,
      });
    },
  );

  it("200 with reason code `other` and its words; the timeline gets a status_changed entry", async () => {
    const { session, request, employee } = await staffWithRequest("on_review");
    const response = await call(POST, {
      method: "POST",
      session,
      params: { id: request.id },
      body: { status: "rejected", reasonCode: "other", reason: "The business closed." },
    });
    expect(response.body).toMatchObject({ decisionReasonCode: "other", decisionReason: "The business closed." });
    const entries = await db().informationRequestEvent.findMany({ where: { informationRequestId: request.id } });
    expect(entries).toEqual([
      expect.objectContaining({
        type: "status_changed",
        actorType: "employee",
        actorId: employee.id,
        data: { status: "rejected", previousStatus: "on_review", reasonCode: "other", reason: "The business closed." },
      }),
    ]);
  });

  it("422 for a reason code with on_review", async () => {
    const { session, request } = await staffWithRequest();
    const response = await call(POST, {
      method: "POST",
      session,
      params: { id: request.id },
      body: { status: "on_review", reasonCode: "other" },
    });
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.details ?? {})).toEqual(["reasonCode"]);
    expect(await statusOf(request.id)).toBe("requested");
  });

  it("422 for a reason with on_review: a reason belongs to a decision", async () => {
    const { session, request } = await staffWithRequest();
    const response = await call(POST, {
      method: "POST",
      session,
      params: { id: request.id },
      body: { status: "on_review", reason: "starting" },
    });
    expect(response.status).toBe(422);
    expect(await statusOf(request.id)).toBe("requested");
  });

  it("four-eyes approval: the employee who started the review cannot decide it; a second reviewer can", async () => {
    const first = await staffWithRequest();
    await db().account.update({ where: { id: first.account.id }, data: { fourEyesApproval: true } });
    expect((await move(first.session, first.request.id, "on_review")).status).toBe(200);
    for (const decision of ["approved", "rejected"]) {
      const refused = await move(first.session, first.request.id, decision);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toMatch(/second reviewer must decide/);
    }
    expect(await statusOf(first.request.id)).toBe("on_review");
    const second = await signedInEmployee({ platform: first.account, role: "compliance" });
    const decided = await move(second.session, first.request.id, "approved");
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({ reviewerId: first.employee.id, decidedById: second.employee.id });
  });

  it("without four-eyes approval the reviewer may decide alone", async () => {
    const { session, request } = await staffWithRequest("requested");
    expect((await move(session, request.id, "on_review")).status).toBe(200);
    expect((await move(session, request.id, "approved")).status).toBe(200);
  });

  it("409 for the loser of two concurrent transitions from requested: exactly one succeeds", async () => {
    const { session, request } = await staffWithRequest();
    const responses = await Promise.all([
      move(session, request.id, "on_review"),
      move(session, request.id, "on_review"),
    ]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    expect(await statusOf(request.id)).toBe("on_review");
  });

  it("two concurrent requests: each applies from the state it read, or is refused, and the stored status is the last one applied", async () => {
    const { session, request } = await staffWithRequest();
    const [review, expire] = await Promise.all([
      move(session, request.id, "on_review"),
      move(session, request.id, "expired"),
    ]);
    // on_review first: both apply (on_review -> expired is legal). expired first: on_review is refused.
    // Both read `requested` (PostgreSQL runs them side by side): on_review wins the row, expired is refused.
    const outcomes: Record<string, string> = { "200,200": "expired", "409,200": "expired", "200,409": "on_review" };
    const outcome = [review.status, expire.status].join();
    expect(Object.keys(outcomes)).toContain(outcome);
    expect(await statusOf(request.id)).toBe(outcomes[outcome]);
  });

  it("409 for the loser of two transitions that both read `requested` (as two instances could)", async () => {
    const { scope, request, employee } = await staffWithRequest();
    // The domain function without the request transaction, as on two instances of one database.
    const by = { employeeId: employee.id, fourEyesApproval: false };
    const outcomes = await withScope(scope, () =>
      Promise.allSettled([
        updateInformationRequestStatus({ id: request.id, status: "on_review", by }),
        updateInformationRequestStatus({ id: request.id, status: "expired", reasonCode: "no_response", by }),
      ]),
    );
    const refused = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(refused).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({ kind: "conflict" });
    const winner = outcomes[0]!.status === "fulfilled" ? "on_review" : "expired";
    expect(await statusOf(request.id)).toBe(winner);
  });

  it("200 for a sub-account's request with Service-Account-Id, 404 without it", async () => {
    const { session, account } = await signedInEmployee();
    const sub = await db().account.create({
      data: { id: newId("acct"), platformId: account.id, parentId: account.id, name: "Sub" },
    });
    const request = await withScope({ platformId: account.id, accountId: sub.id }, () =>
      raiseInformationRequest({ kind: "endorsement" }),
    );
    expect((await move(session, request.id, "on_review")).status).toBe(404);
    expect((await move(session, request.id, "on_review", { "service-account-id": sub.id })).status).toBe(200);
  });

  it("403 for an API key, even the platform's own: staff only", async () => {
    const { request, account } = await staffWithRequest();
    const key = await apiKeyFor(account.id);
    const response = await call(POST, {
      method: "POST",
      apiKey: key.secret,
      params: { id: request.id },
      body: { status: "on_review" },
    });
    expectError(response, 403, "err_forbidden");
    expect(await statusOf(request.id)).toBe("requested");
  });

  it("403 for a cross-site request from a session (CSRF)", async () => {
    const { session, request } = await staffWithRequest();
    const response = await move(session, request.id, "on_review", { origin: "https://evil.example" });
    expect(response.status).toBe(403);
    expect(await statusOf(request.id)).toBe("requested");
  });

  it("404 for an unknown id, a malformed id, and another platform's request", async () => {
    const { session } = await signedInEmployee();
    const theirs = await staffWithRequest();
    for (const id of ["ir_doesnotexist", "nope", theirs.request.id]) {
      const response = await move(session, id, "on_review");
      expect(response.status, id).toBe(404);
    }
    expect(await statusOf(theirs.request.id)).toBe("requested");
  });

  it("422 for a missing or unknown status", async () => {
    const { session, request } = await staffWithRequest();
    for (const status of [undefined, "done", 3]) {
      const response = await move(session, request.id, status);
      expect(response.status).toBe(422);
      expect(Object.keys(response.body.details ?? {})).toEqual(["status"]);
    }
  });
});
