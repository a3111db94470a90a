import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { raiseInformationRequest } from "@/lib/information-requests/information-requests";
import { apiKeyFor, signedInEmployee } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { withScope, type Scope } from "@/lib/tenancy";
import { createWebhookEndpoint } from "@/lib/webhooks/webhook-endpoints";
import { POST } from "./route";

async function platformWithStaff() {
  const owner = await signedInEmployee();
  const officer = await signedInEmployee({ role: "compliance", platform: owner.account });
  const scope = { platformId: owner.account.id, accountId: owner.account.id };
  return { owner, officer, scope };
}

const raise = (scope: Scope) => withScope(scope, () => raiseInformationRequest({ kind: "due_diligence" }));
const bulk = (caller: { session?: string; apiKey?: string }, body: unknown) =>
  call(POST, { method: "POST", ...caller, body });

describe("POST /v1/information_requests/bulk", () => {
  it("200 assign: each applied with its own audit record, timeline entry and event; another platform's is not_found", async () => {
    const { owner, officer, scope } = await platformWithStaff();
    const hook = await withScope(scope, () =>
      createWebhookEndpoint({
        url: "https://hooks.example.com/in",
        events: ["information_request.assigned"],
        enabled: true,
      }),
    );
    const [first, second] = [await raise(scope), await raise(scope)];
    const theirs = await raise((await platformWithStaff()).scope);
    const response = await bulk(
      { session: owner.session },
      { ids: [first.id, theirs.id, second.id], action: "assign", assigneeId: officer.employee.id, priority: "high" },
    );
    expect(response.status).toBe(200);
    expect(response.body.results).toEqual([
      { id: first.id, ok: true },
      { id: theirs.id, ok: false, error: { error_code: "err_not_found", message: expect.any(String) } },
      { id: second.id, ok: true },
    ]);
    for (const id of [first.id, second.id]) {
      expect(await db().informationRequest.findUniqueOrThrow({ where: { id } })).toMatchObject({
        assigneeId: officer.employee.id,
        priority: "high",
      });
      const audits = await db().auditEvent.findMany({ where: { action: "information_request.update", targetId: id } });
      expect(audits).toHaveLength(1);
      expect(audits[0]).toMatchObject({ actorId: owner.employee.id, status: 200, outcome: "success" });
      expect(audits[0]!.details).toMatchObject({
        assigneeId: officer.employee.id,
        priority: "high",
        before: { assigneeId: null, priority: "normal" },
      });
      const types = await db().informationRequestEvent.findMany({ where: { informationRequestId: id } });
      expect(types.map((entry) => entry.type).sort()).toEqual(["assigned", "priority_changed"]);
    }
    const deliveries = await db().webhookDelivery.findMany({ where: { webhookEndpointId: hook.id } });
    expect(deliveries.map((delivery) => (delivery.eventData as { id: string }).id).sort()).toEqual(
      [first.id, second.id].sort(),
    );
    expect(await db().informationRequest.findUniqueOrThrow({ where: { id: theirs.id } })).toMatchObject({
      assigneeId: null,
    });
    const refusal = await db().auditEvent.findFirstOrThrow({
      where: { action: "information_request.update", targetId: theirs.id },
    });
    expect(refusal).toMatchObject({ status: 404, outcome: "failure", actorId: owner.employee.id });
    const whole = await db().auditEvent.findFirstOrThrow({
      where: { action: "information_request.bulk", actorId: owner.employee.id },
    });
    expect(whole.details).toEqual({ action: "assign", count: 3, assigneeId: officer.employee.id, priority: "high" });
  });

  it("200 status with four-eyes: the reviewer's own item is refused, the others decided; illegal moves are conflicts", async () => {
    const { owner, officer, scope } = await platformWithStaff();
    await db().account.update({ where: { id: owner.account.id }, data: { fourEyesApproval: true } });
    const [ownReview, othersReview, fresh] = [await raise(scope), await raise(scope), await raise(scope)];
    await db().informationRequest.update({
      where: { id: ownReview.id },
      data: { status: "on_review", reviewerId: owner.employee.id },
    });
    await db().informationRequest.update({
      where: { id: othersReview.id },
      data: { status: "on_review", reviewerId: officer.employee.id },
    });
    const response = await bulk(
      { session: owner.session },
      {
        ids: [ownReview.id, othersReview.id, fresh.id],
        action: "status",
        status: "rejected",
        reasonCode: "adverse_media",
      },
    );
    expect(response.status).toBe(200);
    expect(response.body.results).toEqual([
      {
        id: ownReview.id,
        ok: false,
        error: { error_code: "err_forbidden", message: expect.stringMatching(/Four-eyes/) },
      },
      { id: othersReview.id, ok: true },
      { id: fresh.id, ok: false, error: { error_code: "err_conflict", message: expect.any(String) } },
    ]);
    const status = async (id: string) => (await db().informationRequest.findUniqueOrThrow({ where: { id } })).status;
    expect([await status(ownReview.id), await status(othersReview.id), await status(fresh.id)]).toEqual([
      "on_review",
      "rejected",
      "requested",
    ]);
    expect(await db().informationRequest.findUniqueOrThrow({ where: { id: othersReview.id } })).toMatchObject({
      decisionReasonCode: "adverse_media",
      decidedById: owner.employee.id,
    });
    const audits = await db().auditEvent.findMany({
      where: { action: "information_request.update_status", actorId: owner.employee.id },
    });
    expect(Object.fromEntries(audits.map((audit) => [audit.targetId, audit.status]))).toEqual({
      [ownReview.id]: 403,
      [othersReview.id]: 200,
      [fresh.id]: 409,
    });
    expect(await db().informationRequestEvent.count({ where: { informationRequestId: ownReview.id } })).toBe(0);
  });

  it("an API key may assign, but changing statuses is for staff: 403 for the whole call", async () => {
    const { owner, officer, scope } = await platformWithStaff();
    const key = await apiKeyFor(owner.account.id);
    const request = await raise(scope);
    const assigned = await bulk(
      { apiKey: key.secret },
      { ids: [request.id], action: "assign", assigneeId: officer.employee.id },
    );
    expect(assigned.body.results).toEqual([{ id: request.id, ok: true }]);
    const refused = await bulk({ apiKey: key.secret }, { ids: [request.id], action: "status", status: "on_review" });
    expect(refused.status).toBe(403);
    expect((await db().informationRequest.findUniqueOrThrow({ where: { id: request.id } })).status).toBe("requested");
  });

  it("each item refused as it would be alone: an assignee who may not decide is a validation error for each", async () => {
    const { owner, scope } = await platformWithStaff();
    const viewer = await signedInEmployee({ role: "viewer", platform: owner.account });
    const request = await raise(scope);
    const response = await bulk(
      { session: owner.session },
      { ids: [request.id], action: "assign", assigneeId: viewer.employee.id },
    );
    expect(response.body.results).toEqual([
      { id: request.id, ok: false, error: { error_code: "err_validation", message: expect.any(String) } },
    ]);
  });

  it("403 for a role without information_requests:write", async () => {
    const { owner, scope } = await platformWithStaff();
    const viewer = await signedInEmployee({ role: "viewer", platform: owner.account });
    const request = await raise(scope);
    const response = await bulk({ session: viewer.session }, { ids: [request.id], action: "assign", priority: "low" });
    expect(response.status).toBe(403);
    expect(response.body.details).toEqual({ permission: "information_requests:write" });
  });

  it("422 naming the field for every limit and rule", async () => {
    const { owner, officer, scope } = await platformWithStaff();
    const { id } = await raise(scope);
    const many = Array.from({ length: 101 }, (_, index) => `ir_${index.toString(36)}`);
    const cases: [object, string][] = [
      [{ ids: [], action: "assign", priority: "low" }, "ids"],
      [{ ids: many, action: "assign", priority: "low" }, "ids"],
      [{ ids: [id, id], action: "assign", priority: "low" }, "ids"],
      [{ ids: ["tr_1"], action: "assign", priority: "low" }, "ids.0"],
      [{ ids: [id], action: "close" }, "action"],
      [{ ids: [id], action: "assign" }, "assigneeId"],
      [{ ids: [id], action: "assign", priority: "low", status: "approved" }, "status"],
      [{ ids: [id], action: "assign", assigneeId: "someone" }, "assigneeId"],
      [{ ids: [id], action: "assign", priority: "critical" }, "priority"],
      [{ ids: [id], action: "status" }, "status"],
      [{ ids: [id], action: "status", status: "rejected" }, "reasonCode"],
      [{ ids: [id], action: "status", status: "expired", reasonCode: "other" }, "reason"],
      [{ ids: [id], action: "status", status: "on_review", reasonCode: "no_response" }, "reasonCode"],
      [{ ids: [id], action: "status", status: "on_review", assigneeId: officer.employee.id }, "assigneeId"],
    ];
    for (const [body, field] of cases) {
      const response = await bulk({ session: owner.session }, body);
      expect(response.status, JSON.stringify(body).slice(0, 200)).toBe(422);
      expect(Object.keys(response.body.details ?? {}), JSON.stringify(body).slice(0, 200)).toEqual([field]);
    }
    expect(await db().informationRequestEvent.count({ where: { informationRequestId: id } })).toBe(0);
  });
});
