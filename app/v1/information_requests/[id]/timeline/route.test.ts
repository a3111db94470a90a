import { describe, expect, it } from "vitest";
import { POST as updateRequest } from "@/app/v1/information_requests/[id]/route";
import { POST as changeStatus } from "@/app/v1/information_requests/[id]/status/route";
import { raiseInformationRequest } from "@/lib/information-requests/information-requests";
import { recordTimelineEntry } from "@/lib/information-requests/timeline";
import { apiKeyFor, nextMillisecond, signedInEmployee } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { withScope } from "@/lib/tenancy";
import { GET } from "./route";

async function platformWithRequest() {
  const owner = await signedInEmployee();
  const officer = await signedInEmployee({ role: "compliance", platform: owner.account });
  const scope = { platformId: owner.account.id, accountId: owner.account.id };
  const request = await withScope(scope, () => raiseInformationRequest({ kind: "due_diligence" }));
  return { owner, officer, scope, request };
}

const timeline = (caller: { session?: string; apiKey?: string }, id: string) =>
  call(GET, { ...caller, params: { id } });

describe("GET /v1/information_requests/{id}/timeline", () => {
  it("200: created, then each change oldest first, with its actor by name and its own fields", async () => {
    const { owner, officer, scope, request } = await platformWithRequest();
    const key = await apiKeyFor(owner.account.id, { name: "Queue robot" });
    await nextMillisecond();
    await call(updateRequest, {
      method: "POST",
      apiKey: key.secret,
      params: { id: request.id },
      body: { assigneeId: officer.employee.id },
    });
    await nextMillisecond();
    await call(updateRequest, {
      method: "POST",
      session: owner.session,
      params: { id: request.id },
      body: { priority: "high" },
    });
    await nextMillisecond();
    const move = (body: object) =>
      call(changeStatus, { method: "POST", session: officer.session, params: { id: request.id }, body });
    expect((await move({ status: "on_review" })).status).toBe(200);
    await nextMillisecond();
    expect((await move({ status: "rejected", reasonCode: "sanctions_match" })).status).toBe(200);
    await nextMillisecond();
    await withScope(scope, () =>
      recordTimelineEntry({
        informationRequestId: request.id,
        type: "sla_breached",
        actor: { type: "system", id: null },
        data: { dueAt: "2026-11-01T10:00:00.000Z" },
      }),
    );
    const response = await timeline({ session: owner.session }, request.id);
    expect(response.status).toBe(200);
    const employee = (who: typeof owner) => ({ type: "employee", id: who.employee.id, name: who.employee.name });
    expect(response.body).toEqual([
      { at: request.createdAt.toISOString(), type: "created", actor: { type: "system", id: null, name: null } },
      {
        at: expect.any(String),
        type: "assigned",
        actor: { type: "api_key", id: key.id, name: "Queue robot" },
        assigneeId: officer.employee.id,
        previousAssigneeId: null,
      },
      {
        at: expect.any(String),
        type: "priority_changed",
        actor: employee(owner),
        priority: "high",
        previousPriority: "normal",
      },
      {
        at: expect.any(String),
        type: "status_changed",
        actor: employee(officer),
        status: "on_review",
        previousStatus: "requested",
        reasonCode: null,
        reason: null,
      },
      {
        at: expect.any(String),
        type: "status_changed",
        actor: employee(officer),
        status: "rejected",
        previousStatus: "on_review",
        reasonCode: "sanctions_match",
        reason: null,
      },
      {
        at: expect.any(String),
        type: "sla_breached",
        actor: { type: "system", id: null, name: null },
        dueAt: "2026-11-01T10:00:00.000Z",
      },
    ]);
    const times = response.body.map((entry) => Date.parse(entry.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // An API key with the read permission sees the same.
    const reader = await apiKeyFor(owner.account.id, { permissions: ["information_requests:read"] });
    expect((await timeline({ apiKey: reader.secret }, request.id)).body).toEqual(response.body);
  });

  it("404 for another platform's request, an unknown and a malformed id; 403 without information_requests:read", async () => {
    const { owner, request } = await platformWithRequest();
    const theirs = await platformWithRequest();
    for (const id of [theirs.request.id, "ir_unknown", "nope"]) {
      expect((await timeline({ session: owner.session }, id)).status, id).toBe(404);
    }
    const developer = await signedInEmployee({ role: "developer", platform: owner.account });
    const refused = await timeline({ session: developer.session }, request.id);
    expect(refused.status).toBe(403);
    expect(refused.body.details).toEqual({ permission: "information_requests:read" });
  });
});
