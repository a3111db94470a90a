// Every event type is written by the code path that makes the change, in its transaction, with
// `data` equal to what the API answers for that resource (plus accountId). Driven through the real
// route handlers, so each comparison is against the API's own response.
import { beforeAll, describe, expect, it } from "vitest";
import { jsonObject } from "@/lib/db/json";
import { POST as issueKey } from "@/app/v1/api_keys/route";
import { DELETE as revokeKey } from "@/app/v1/api_keys/[key]/route";
import { POST as rollKey } from "@/app/v1/api_keys/[key]/roll/route";
import { POST as createDelegatedUserRoute } from "@/app/v1/delegated_users/route";
import { POST as inviteRoute } from "@/app/v1/employees/route";
import { DELETE as deactivateEmployeeRoute } from "@/app/v1/employees/[id]/route";
import { POST as changeStatus } from "@/app/v1/information_requests/[id]/status/route";
import { POST as addNote } from "@/app/v1/information_requests/[id]/notes/route";
import { POST as uploadDocument } from "@/app/v1/information_requests/[id]/documents/route";
import { GET as getRequest, POST as updateRequest } from "@/app/v1/information_requests/[id]/route";
import { POST as updateProfile } from "@/app/v1/kyc/update_profile/route";
import { POST as acceptAgreementRoute } from "@/app/v1/kyc/submissions/[submissionId]/agreements/route";
import { DELETE as deleteRecipientRoute } from "@/app/v1/recipients/[id]/route";
import { POST as raiseRequest } from "@/app/v1/sandbox/information_requests/route";
import { POST as createSubmission } from "@/app/v1/sandbox/kyc/submissions/route";
import { POST as createRecipientRoute } from "@/app/v1/sandbox/recipients/route";
import { POST as createTransferRoute } from "@/app/v1/sandbox/transfers/route";
import { POST as createVirtualAccountRoute } from "@/app/v1/sandbox/virtual_accounts/route";
import { POST as payIn } from "@/app/v1/sandbox/virtual_accounts/[idOrKey]/pay_in/route";
import { DELETE as deactivateVirtualAccountRoute } from "@/app/v1/virtual_accounts/[idOrKey]/route";
import { createSubAccount } from "@/lib/accounts/accounts";
import { KEY_PERMISSIONS } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import { createDelegatedUser } from "@/lib/delegated-users/delegated-users";
import { createDelegatedUserEndpoint } from "@/lib/delegated-users/endpoints";
import { sweepSlaBreaches } from "@/lib/information-requests/sla-sweep";
import { ApiError } from "@/lib/http/api-error";
import type { Endpoint } from "@/lib/contract/endpoint";
import { route, type Handler } from "@/lib/http/route";
import { withScope } from "@/lib/tenancy";
import { apiKeyFor, inDays, nextMillisecond, platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, type Call } from "@/lib/testing/http";
import { EVENT_TYPE_NAMES, type EventType } from "@/lib/webhooks/event-types";
import { createWebhookEndpoint } from "@/lib/webhooks/webhook-endpoints";

let owner: Awaited<ReturnType<typeof signedInEmployee>>;
let platformId = "";
let apiKey = "";
let endpointId = "";

const post = <E extends Endpoint>(handler: Handler<E>, options: Call = {}) =>
  call(handler, { method: "POST", apiKey, ...options });
const del = <E extends Endpoint>(handler: Handler<E>, options: Call = {}) =>
  call(handler, { method: "DELETE", apiKey, ...options });

/** The events of `type` the platform's catch-all endpoint holds, oldest first, as { data, accountId }. */
async function eventsOf(type: EventType, webhookEndpointId = endpointId) {
  const rows = await db().webhookDelivery.findMany({
    where: { webhookEndpointId, eventType: type },
    orderBy: [{ occurredAt: "asc" }, { id: "asc" }],
  });
  return rows.map((row) => jsonObject(row.eventData));
}

/** Exactly one new event of `type` since `before`, equal to the API's answer plus accountId. */
async function expectOneEvent(type: EventType, before: number, answer: object, accountId = platformId) {
  const events = await eventsOf(type);
  expect(events.length - before, `${type} events written`).toBe(1);
  expect(events.at(-1)).toEqual({ ...answer, accountId });
}

/** A DELETE by key answers 200 with one `type` event of its answer; repeated, it answers 200 again and writes none. */
async function expectDeletedOnce<E extends Endpoint>(
  type: EventType,
  handler: Handler<E>,
  params: Record<string, string>,
) {
  const deleted = await del(handler, { params });
  expect(deleted.status).toBe(200);
  if (typeof deleted.body !== "object" || deleted.body === null)
    throw new Error(`${type}: the DELETE answered no object`);
  await expectOneEvent(type, 0, deleted.body);
  expect((await del(handler, { params })).status).toBe(200);
  expect(await eventsOf(type)).toHaveLength(1);
}

const endpointFor = (accountId: string, events: EventType[] = EVENT_TYPE_NAMES, enabled = true) =>
  withScope({ platformId, accountId }, () =>
    createWebhookEndpoint({ url: "https://hooks.example.com/all", events, enabled }),
  );

beforeAll(async () => {
  owner = await signedInEmployee({ totp: true });
  platformId = owner.account.id;
  apiKey = (await apiKeyFor(platformId, { permissions: KEY_PERMISSIONS })).secret;
  endpointId = (await endpointFor(platformId)).id;
});

/** The event types no test above writes: the worker's (api_key.expiring) and the test route's (webhook.test). */
// audit.checkpoint: the audit sealer's, tested in lib/audit/seal/sealer.test.ts.
// api_key.leaked: by a signed leak report (app/v1/secret_scanning/reports/route.test.ts).
const NOT_WRITTEN_HERE: EventType[] = ["api_key.expiring", "webhook.test", "audit.checkpoint", "api_key.leaked"];

describe("each event type is written by its code path, with the API's own answer as data", () => {
  it("information_request.created and information_request.status_changed", async () => {
    const raised = await post(raiseRequest, { body: { kind: "endorsement" } });
    expect(raised.status).toBe(201);
    await expectOneEvent("information_request.created", 0, raised.body);
    const before = (await eventsOf("information_request.status_changed")).length;
    const changed = await call(changeStatus, {
      method: "POST",
      session: owner.session,
      params: { id: raised.body.id },
      body: { status: "on_review" },
    });
    expect(changed.status).toBe(200);
    await expectOneEvent("information_request.status_changed", before, changed.body);
    // A refused transition changes nothing and tells nothing.
    expect(
      (
        await call(changeStatus, {
          method: "POST",
          session: owner.session,
          params: { id: raised.body.id },
          body: { status: "on_review" },
        })
      ).status,
    ).toBe(409);
    expect((await eventsOf("information_request.status_changed")).length).toBe(before + 1);
  });

  it("information_request.note_added and information_request.document_added (metadata, never the bytes)", async () => {
    const raised = await post(raiseRequest, { body: { kind: "due_diligence" } });
    const note = await post(addNote, { params: { id: raised.body.id }, body: { body: "Asked for a bank statement." } });
    expect(note.status).toBe(201);
    await expectOneEvent("information_request.note_added", 0, { ...note.body, informationRequestId: raised.body.id });
    const form = new FormData();
    form.append("file", new Blob([Buffer.from("%PDF-1.4\n%%EOF\n")]), "statement.pdf");
    const document = await post(uploadDocument, { params: { id: raised.body.id }, form });
    expect(document.status).toBe(201);
    await expectOneEvent("information_request.document_added", 0, {
      ...document.body,
      informationRequestId: raised.body.id,
    });
  });

  it("information_request.assigned: on an assignment and an unassignment, not on a priority alone or a repeat", async () => {
    const raised = await post(raiseRequest, { body: { kind: "due_diligence" } });
    const id = raised.body.id;
    const assign = (body: object) => post(updateRequest, { params: { id }, body });
    const assigned = await assign({ assigneeId: owner.employee.id });
    expect(assigned.status).toBe(200);
    await expectOneEvent("information_request.assigned", 0, assigned.body);
    expect((await assign({ assigneeId: owner.employee.id, priority: "high" })).status).toBe(200);
    expect(await eventsOf("information_request.assigned")).toHaveLength(1);
    const unassigned = await assign({ assigneeId: null });
    await expectOneEvent("information_request.assigned", 1, unassigned.body);
    expect(unassigned.body).toMatchObject({ assigneeId: null, priority: "high" });
  });

  it("information_request.sla_breached (the SLA sweep), once, with the request as the API shows it", async () => {
    const raised = await post(raiseRequest, { body: { kind: "due_diligence" } });
    expect(raised.status).toBe(201);
    const id = raised.body.id;
    await db().informationRequest.update({ where: { id }, data: { dueAt: new Date(Date.now() - 1000) } });
    expect(await sweepSlaBreaches({ owner: "events-test" })).toBe(1);
    expect(await sweepSlaBreaches({ owner: "events-test" })).toBe(0);
    const shown = await call(getRequest, { apiKey, params: { id } });
    expect(shown.status).toBe(200);
    const { submission: _submission, reviewer: _reviewer, decidedBy: _decidedBy, ...request } = shown.body;
    await expectOneEvent("information_request.sla_breached", 0, request);
  });

  it("kyc.submission.created, kyc.agreement.accepted and kyc.profile.updated (not for an update that changes nothing)", async () => {
    const submission = await post(createSubmission, {
      body: {
        type: "business",
        beneficiaries: [{ type: "individual", country: "DE", roles: ["ubo"], shareSize: 100, name: "Ada" }],
      },
    });
    expect(submission.status).toBe(201);
    await expectOneEvent("kyc.submission.created", 0, submission.body);
    const agreement = await post(acceptAgreementRoute, {
      params: { submissionId: submission.body.id },
      body: { documentSetId: "terms-v1", ipAddress: "203.0.113.9" },
    });
    expect(agreement.status).toBe(201);
    await expectOneEvent("kyc.agreement.accepted", 0, agreement.body);
    const profile = await post(updateProfile, { body: { firstName: "Ada", lastName: "Lovelace" } });
    expect(profile.status).toBe(200);
    await expectOneEvent("kyc.profile.updated", 0, profile.body);
    expect((await post(updateProfile, { body: { firstName: "Ada" } })).status).toBe(200);
    expect(await eventsOf("kyc.profile.updated")).toHaveLength(1);
    await nextMillisecond();
    const changed = await post(updateProfile, { body: { firstName: "Augusta" } });
    await expectOneEvent("kyc.profile.updated", 1, changed.body);
  });

  it("transaction.created (sandbox pay-in) and virtual_account.deactivated (once, not on a repeat)", async () => {
    const account = await post(createVirtualAccountRoute, { body: { currency: "EUR" } });
    const paid = await post(payIn, {
      params: { idOrKey: account.body.id },
      body: { amount: "12.50", currency: "EUR" },
    });
    expect(paid.status).toBe(201);
    await expectOneEvent("transaction.created", 0, paid.body);
    await expectDeletedOnce("virtual_account.deactivated", deactivateVirtualAccountRoute, { idOrKey: account.body.id });
  });

  it("transfer.created (sandbox transfer) and recipient.deleted", async () => {
    const recipient = await post(createRecipientRoute, { body: { name: "Grace" } });
    const transfer = await post(createTransferRoute, {
      body: { recipientId: recipient.body.id, amount: "7.00", currency: "EUR" },
    });
    expect(transfer.status).toBe(201);
    await expectOneEvent("transfer.created", 0, transfer.body);
    const deleted = await del(deleteRecipientRoute, { params: { id: recipient.body.id } });
    expect(deleted.status).toBe(200);
    await expectOneEvent("recipient.deleted", 0, deleted.body);
  });

  it("delegated_user.created", async () => {
    const before = (await eventsOf("delegated_user.created")).length;
    const user = await post(createDelegatedUserRoute, { body: { externalId: "user-emit-1" } });
    expect(user.status).toBe(201);
    await expectOneEvent("delegated_user.created", before, user.body);
  });

  it("api_key.created without the secret; a roll is api_key.created for the new key; api_key.revoked once", async () => {
    const before = (await eventsOf("api_key.created")).length;
    const issued = await post(issueKey, { body: { expiresAt: inDays(30), name: "Emitted" } });
    expect(issued.status).toBe(201);
    const { secret, ...shown } = issued.body;
    await expectOneEvent("api_key.created", before, shown);
    const all = JSON.stringify(await db().webhookDelivery.findMany());
    expect(all).not.toContain(secret);
    expect(all).not.toContain('"secret"');

    await nextMillisecond();
    const rolled = await post(rollKey, {
      params: { key: issued.body.id },
      body: { expiresAt: inDays(30), overlapSeconds: 60 },
    });
    expect(rolled.status).toBe(201);
    const { secret: rolledSecret, ...rolledShown } = rolled.body;
    await expectOneEvent("api_key.created", before + 1, rolledShown);
    expect(JSON.stringify(await db().webhookDelivery.findMany())).not.toContain(rolledSecret);
    expect(await eventsOf("api_key.revoked")).toHaveLength(0);

    await expectDeletedOnce("api_key.revoked", revokeKey, { key: issued.body.id });
  });

  it("employee.invited without the invitation link or token; employee.deactivated once", async () => {
    const invited = await call(inviteRoute, {
      method: "POST",
      session: owner.session,
      totp: owner.authenticator!.nextCode(),
      body: { name: "Invitee", email: "emit-invitee@example.com", role: "viewer" },
    });
    expect(invited.status).toBe(201);
    const { invitationUrl, invitationExpiresAt: _, ...employee } = invited.body;
    await expectOneEvent("employee.invited", 0, employee);
    const token = new URL(invitationUrl).searchParams.get("token")!;
    const all = JSON.stringify(await db().webhookDelivery.findMany());
    expect(all).not.toContain(token);
    expect(all).not.toContain("invitation");

    const deactivated = await call(deactivateEmployeeRoute, {
      method: "DELETE",
      session: owner.session,
      totp: owner.authenticator!.nextCode(),
      params: { id: invited.body.id },
    });
    expect(deactivated.status).toBe(200);
    // The employee as GET /v1/employees/{id} shows them: the answer's createdCredentials stay out of the event.
    const { createdCredentials: _credentials, ...deactivatedEmployee } = deactivated.body;
    await expectOneEvent("employee.deactivated", 0, deactivatedEmployee);
    const again = await call(deactivateEmployeeRoute, {
      method: "DELETE",
      session: owner.session,
      totp: owner.authenticator!.nextCode(),
      params: { id: invited.body.id },
    });
    expect(again.status).toBe(200);
    expect(await eventsOf("employee.deactivated")).toHaveLength(1);
  });

  it("covers every event type of the contract but those written elsewhere", async () => {
    const written = new Set(
      (
        await db().webhookDelivery.findMany({ where: { webhookEndpointId: endpointId }, select: { eventType: true } })
      ).map((row) => row.eventType),
    );
    expect(EVENT_TYPE_NAMES.filter((type) => !written.has(type)).sort()).toEqual([...NOT_WRITTEN_HERE].sort());
  });
});

describe("the event shares the change's transaction", () => {
  it("a handler that fails after the change leaves neither the change nor its event", async () => {
    const failing = route(createDelegatedUserEndpoint, async () => {
      await createDelegatedUser({ externalId: "rolled-back-user" });
      throw new ApiError("err_conflict", "failing on purpose after the change");
    });
    const before = (await eventsOf("delegated_user.created")).length;
    const response = await post(failing, { body: { externalId: "rolled-back-user" } });
    expect(response.status).toBe(409);
    expect(await db().delegatedUser.count({ where: { externalId: "rolled-back-user" } })).toBe(0);
    expect(await eventsOf("delegated_user.created")).toHaveLength(before);
  });
});

describe("who hears what", () => {
  it("a sub-account's endpoint gets only its account's events; the platform's gets every account's, with accountId", async () => {
    const sub = await withScope({ platformId, accountId: platformId }, () =>
      createSubAccount({ name: "Emit sub", parentId: platformId }),
    );
    const subEndpoint = await endpointFor(sub.id);
    const narrow = await endpointFor(platformId, ["transfer.created"]);
    const disabled = await endpointFor(platformId, EVENT_TYPE_NAMES, false);
    const stranger = await platformWithKey();
    const strangerEndpoint = await withScope(stranger.scope, () =>
      createWebhookEndpoint({ url: "https://other.example.com/", events: EVENT_TYPE_NAMES, enabled: true }),
    );

    const before = (await eventsOf("delegated_user.created")).length;
    const inSub = await post(createDelegatedUserRoute, {
      body: { externalId: "sub-user" },
      headers: { "service-account-id": sub.id },
    });
    expect(inSub.status).toBe(201);
    await nextMillisecond();
    const inPlatform = await post(createDelegatedUserRoute, { body: { externalId: "platform-user" } });
    expect(inPlatform.status).toBe(201);

    expect((await eventsOf("delegated_user.created")).slice(before)).toEqual([
      { ...inSub.body, accountId: sub.id },
      { ...inPlatform.body, accountId: platformId },
    ]);
    expect(await eventsOf("delegated_user.created", subEndpoint.id)).toEqual([{ ...inSub.body, accountId: sub.id }]);
    const subRows = await db().webhookDelivery.findMany({ where: { webhookEndpointId: subEndpoint.id } });
    expect(subRows.map((row) => row.accountId)).toEqual([sub.id]);
    for (const silent of [narrow.id, disabled.id, strangerEndpoint.id]) {
      expect(await db().webhookDelivery.count({ where: { webhookEndpointId: silent } })).toBe(0);
    }
  });
});
