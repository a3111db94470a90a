import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { raiseInformationRequest } from "@/lib/information-requests/information-requests";
import { withScope } from "@/lib/tenancy";
import { lastAuditEvent } from "@/lib/testing/audit";
import { apiKeyFor, nextMillisecond, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { createWebhookEndpoint } from "@/lib/webhooks/webhook-endpoints";
import { GET, POST } from "./route";

/** A signed-in owner, a request of their platform, and a webhook endpoint hearing note_added. */
async function staffWithRequest() {
  const staff = await signedInEmployee();
  const scope = { platformId: staff.account.id, accountId: staff.account.id };
  const request = await withScope(scope, () => raiseInformationRequest({ kind: "due_diligence" }));
  const hook = await withScope(scope, () =>
    createWebhookEndpoint({
      url: "https://notes.example.com/hook",
      events: ["information_request.note_added"],
      enabled: true,
    }),
  );
  return { ...staff, scope, request, hook };
}

const add = (credential: { session?: string; apiKey?: string }, id: string, body: unknown) =>
  call(POST, { method: "POST", params: { id }, body, ...credential });
const list = (credential: { session?: string; apiKey?: string }, id: string) =>
  call(GET, { params: { id }, ...credential });

const eventsOf = (webhookEndpointId: string) =>
  db().webhookDelivery.findMany({ where: { webhookEndpointId, eventType: "information_request.note_added" } });
const timelineOf = (informationRequestId: string) =>
  db().informationRequestEvent.findMany({ where: { informationRequestId }, orderBy: [{ at: "asc" }, { id: "asc" }] });

describe("POST /v1/information_requests/{id}/notes", () => {
  it("201: the note, trimmed, written by the employee; a timeline entry, an event and an audit record", async () => {
    const { account, session, employee, request, hook } = await staffWithRequest();
    const response = await add({ session }, request.id, {
      body: "  Called the customer.\n\tThey will send a bank statement.  ",
    });
    expect(response.status).toBe(201);
    const body = "Called the customer.\n\tThey will send a bank statement.";
    expect(response.body).toEqual({
      id: expect.stringMatching(/^note_[a-z0-9]+$/),
      authorId: employee.id,
      body,
      createdAt: expect.any(String),
    });
    const timeline = await timelineOf(request.id);
    expect(timeline).toEqual([
      expect.objectContaining({
        type: "note_added",
        actorType: "employee",
        actorId: employee.id,
        data: { noteId: response.body.id, body },
      }),
    ]);
    const events = await eventsOf(hook.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.eventData).toEqual({ ...response.body, informationRequestId: request.id, accountId: account.id });
    const audit = await lastAuditEvent({ action: "information_request.note.create", targetId: request.id });
    expect(audit).toMatchObject({ actorId: employee.id, status: 201 });
    expect(audit.details).toEqual({ length: body.length, noteId: response.body.id });
  });

  it("201 from an API key with information_requests:write: the key is the author", async () => {
    const { account, request } = await staffWithRequest();
    const key = await apiKeyFor(account.id, { permissions: ["information_requests:write"] });
    const response = await add({ apiKey: key.secret }, request.id, { body: "Checked by the platform's system." });
    expect(response.status).toBe(201);
    expect(response.body.authorId).toBe(key.id);
    expect((await timelineOf(request.id))[0]).toMatchObject({ actorType: "api_key", actorId: key.id });
  });

  it("201 with exactly 5000 characters; 422 for an empty note, spaces only, 5001 characters and control characters", async () => {
    const { session, request } = await staffWithRequest();
    expect((await add({ session }, request.id, { body: "é".repeat(5000) })).status).toBe(201);
    for (const [body, message] of [
      ["", /must not be empty/],
      [" \n\t ", /must not be empty/],
      ["x".repeat(5001), /at most 5000/],
      ["bell\u0007", /control characters/],
      ["nul\u0000", /control characters/],
      ["escape\u001b[31m", /control characters/],
    ] as const) {
      const response = await add({ session }, request.id, { body });
      expectError(response, 422, "err_validation");
      expect(response.body.details?.body, JSON.stringify(body)).toMatch(message);
    }
    for (const body of [undefined, 42, null]) {
      const response = await add({ session }, request.id, body === undefined ? {} : { body });
      expectError(response, 422, "err_validation");
      expect(response.body.details).toHaveProperty("body");
    }
    expect(await db().informationRequestNote.count({ where: { informationRequestId: request.id } })).toBe(1);
  });

  it("404 for another account's request, and for one that exists nowhere; nothing written", async () => {
    const { request } = await staffWithRequest();
    const stranger = await signedInEmployee();
    for (const id of [request.id, "ir_doesnotexist"]) {
      const response = await add({ session: stranger.session }, id, { body: "Not mine." });
      expectError(response, 404, "err_not_found");
      expect(response.body.message).toBe("Information request not found");
    }
    expect(await db().informationRequestNote.count({ where: { informationRequestId: request.id } })).toBe(0);
    expect(await timelineOf(request.id)).toEqual([]);
  });

  it("403 for a viewer, and for a key without information_requests:write", async () => {
    const { account, request } = await staffWithRequest();
    const viewer = await signedInEmployee({ role: "viewer", platform: account });
    const refused = await add({ session: viewer.session }, request.id, { body: "A viewer's note." });
    expectError(refused, 403, "err_forbidden");
    expect(refused.body.details).toEqual({ permission: "information_requests:write" });
    const reader = await apiKeyFor(account.id, { permissions: ["information_requests:read"] });
    expectError(await add({ apiKey: reader.secret }, request.id, { body: "A reader's note." }), 403, "err_forbidden");
    expect(await db().informationRequestNote.count({ where: { informationRequestId: request.id } })).toBe(0);
  });
});

describe("GET /v1/information_requests/{id}/notes", () => {
  it("200: a plain array, oldest first, for a viewer and a key with information_requests:read", async () => {
    const { account, session, request } = await staffWithRequest();
    const ids: string[] = [];
    for (const body of ["First.", "Second.", "Third."]) {
      ids.push((await add({ session }, request.id, { body })).body.id!);
      await nextMillisecond();
    }
    const viewer = await signedInEmployee({ role: "viewer", platform: account });
    const reader = await apiKeyFor(account.id, { permissions: ["information_requests:read"] });
    for (const credential of [{ session: viewer.session }, { apiKey: reader.secret }]) {
      const response = await list(credential, request.id);
      expect(response.status).toBe(200);
      expect(response.body.map((note) => note.id)).toEqual(ids);
      expect(response.body.map((note) => note.body)).toEqual(["First.", "Second.", "Third."]);
    }
  });

  it("404 for another account's request; 403 for a key without information_requests:read", async () => {
    const { account, request } = await staffWithRequest();
    const stranger = await signedInEmployee();
    expectError(await list({ session: stranger.session }, request.id), 404, "err_not_found");
    const writer = await apiKeyFor(account.id, { permissions: ["transfers:read"] });
    expectError(await list({ apiKey: writer.secret }, request.id), 403, "err_forbidden");
  });
});
