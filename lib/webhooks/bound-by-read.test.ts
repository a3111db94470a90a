// Webhooks and their delivery log are bound by the read permission of what they show
// (docs/security.md, Who may do what): the table of callers (every role that may use the
// route, and a key holding only webhooks:read + webhooks:write) against every event type, with each
// expectation computed from the permission table, never written out by hand.
import { beforeAll, describe, expect, it } from "vitest";
import { GET as listDeliveries } from "@/app/v1/webhook_endpoints/[id]/events/route";
import { POST as retry } from "@/app/v1/webhook_endpoints/[id]/events/[eventId]/retry/route";
import { POST as update } from "@/app/v1/webhook_endpoints/[id]/route";
import { POST as create } from "@/app/v1/webhook_endpoints/route";
import { POST as invite } from "@/app/v1/employees/route";
import { POST as updateProfile } from "@/app/v1/kyc/update_profile/route";
import { EVENT_TYPE_READ_PERMISSIONS, ROLE_PERMISSIONS, ROLES, type Permission } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import { jsonNames } from "@/lib/db/json";
import type { Endpoint } from "@/lib/contract/endpoint";
import { withScope } from "@/lib/tenancy";
import { apiKeyFor, signedInEmployee } from "@/lib/testing/factories";
import { call, type Call } from "@/lib/testing/http";
import {
  createWebhookEndpointEndpoint,
  listWebhookDeliveriesEndpoint,
  retryWebhookDeliveryEndpoint,
  updateWebhookEndpointEndpoint,
} from "@/lib/webhooks/endpoints";
import { EVENT_TYPE_NAMES, isEventType, type EventType } from "@/lib/webhooks/event-types";
import { emitEvent } from "@/lib/webhooks/events";
import { createWebhookEndpoint } from "@/lib/webhooks/webhook-endpoints";

const RESTRICTED_KEY = "key with webhooks:read + webhooks:write";
type CallerName = (typeof ROLES)[number] | typeof RESTRICTED_KEY;
const RESTRICTED_PERMISSIONS: Permission[] = ["webhooks:read", "webhooks:write"];

/** Everyone who may use the route at all: the roles whose permissions include the route's, and the restricted key. */
const callersOf = (endpoint: Pick<Endpoint, "permission">): CallerName[] => [
  ...ROLES.filter((role) => endpoint.permission !== null && ROLE_PERMISSIONS[role].includes(endpoint.permission)),
  RESTRICTED_KEY,
];

type Caller = { permissions: readonly Permission[]; as: () => Call };

/** A platform, its owner, an employee of each role and the restricted key, each as call options. */
async function platformWithCallers() {
  const owner = await signedInEmployee({ totp: true });
  const platform = owner.account;
  const callers = new Map<CallerName, Caller>();
  for (const role of ROLES) {
    const employee = role === "owner" ? owner : await signedInEmployee({ totp: true, role, platform });
    callers.set(role, {
      permissions: ROLE_PERMISSIONS[role],
      as: () => ({ session: employee.session, totp: employee.authenticator!.nextCode() }),
    });
  }
  const key = await apiKeyFor(platform.id, { permissions: RESTRICTED_PERMISSIONS });
  expect(key.permissions).toEqual(RESTRICTED_PERMISSIONS);
  callers.set(RESTRICTED_KEY, { permissions: key.permissions, as: () => ({ apiKey: key.secret }) });
  const scope = { platformId: platform.id, accountId: platform.id };
  /** An endpoint made by the platform itself (the domain function, as the seed would), hearing `events`. */
  const endpointHearing = (events: EventType[]) =>
    withScope(scope, () => createWebhookEndpoint({ url: "https://hooks.example.com/all", events, enabled: true }));
  return { platform, owner, callers, endpointHearing };
}

/** What the permission table says: null when `permissions` may read what `type` shows, else the read permission missing. */
const expectedRefusal = (permissions: readonly Permission[], type: EventType) => {
  const needed = EVENT_TYPE_READ_PERMISSIONS[type];
  return permissions.includes(needed) ? null : needed;
};

/** Status and named permission per event type, for a toEqual that shows the whole table row on failure. */
type Outcome = { status: number; permission: unknown };
const outcome = (answer: { status: number; body: { details?: unknown } | null }): Outcome => ({
  status: answer.status,
  permission: answer.status === 403 ? (answer.body?.details as { permission?: unknown } | undefined)?.permission : null,
});
const expectedOutcome = (permissions: readonly Permission[], type: EventType, okStatus: number): Outcome => {
  const missing = expectedRefusal(permissions, type);
  return missing ? { status: 403, permission: missing } : { status: okStatus, permission: null };
};

const storedEvents = async (id: string) =>
  jsonNames((await db().webhookEndpoint.findUniqueOrThrow({ where: { id } })).subscribedEvents, isEventType);

let setup: Awaited<ReturnType<typeof platformWithCallers>>;
beforeAll(async () => {
  setup = await platformWithCallers();
});

describe("POST /v1/webhook_endpoints: only event types whose resource the caller may read", () => {
  it.each(callersOf(createWebhookEndpointEndpoint))("%s, against every event type", async (name) => {
    // A platform of its own: the allowed ones create endpoints. An account holds at most 20, fewer than
    // the event types, so each one created is removed again (straight from the database) after it counted.
    const { callers, platform } = await platformWithCallers();
    const caller = callers.get(name)!;
    const actual: Record<string, Outcome> = {};
    const expected: Record<string, Outcome> = {};
    let created = 0;
    for (const type of EVENT_TYPE_NAMES) {
      const answer = await call(create, {
        method: "POST",
        path: "/v1/webhook_endpoints",
        ...caller.as(),
        body: { url: "https://hooks.example.com/in", events: [type] },
      });
      actual[type] = outcome(answer);
      expected[type] = expectedOutcome(caller.permissions, type, 201);
      if (answer.status === 403) expect(answer.body.message, type).toContain(EVENT_TYPE_READ_PERMISSIONS[type]);
      created += await db()
        .webhookEndpoint.deleteMany({ where: { accountId: platform.id } })
        .then((done) => done.count);
    }
    expect(actual).toEqual(expected);
    const allowed = EVENT_TYPE_NAMES.filter((type) => expectedRefusal(caller.permissions, type) === null);
    expect(created).toBe(allowed.length);
  });

  it("one unreadable event type among readable ones refuses the whole endpoint, naming that one's permission", async () => {
    const developer = setup.callers.get("developer")!;
    const answer = await call(create, {
      method: "POST",
      path: "/v1/webhook_endpoints",
      ...developer.as(),
      body: {
        url: "https://hooks.example.com/in",
        events: ["transfer.created", "kyc.profile.updated", "employee.invited"],
      },
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ error_code: "err_forbidden", details: { permission: "kyc:read" } });
    expect(answer.body.message).toBe(
      "Your role (developer) may not subscribe an endpoint to kyc.profile.updated events: it needs the kyc:read permission to see that data",
    );
  });
});

describe("POST /v1/webhook_endpoints/{id}: every event type heard afterwards, whenever the events or the URL change", () => {
  const updateAs = (caller: Caller, id: string, body: Record<string, unknown>) =>
    call(update, { method: "POST", path: `/v1/webhook_endpoints/${id}`, params: { id }, ...caller.as(), body });

  it.each(callersOf(updateWebhookEndpointEndpoint))("%s changes the events, against every event type", async (name) => {
    const caller = setup.callers.get(name)!;
    const endpoint = await setup.endpointHearing(["webhook.test"]);
    const actual: Record<string, Outcome> = {};
    const expected: Record<string, Outcome> = {};
    for (const type of EVENT_TYPE_NAMES) {
      const before = await storedEvents(endpoint.id);
      const answer = await updateAs(caller, endpoint.id, { events: [type] });
      actual[type] = outcome(answer);
      expected[type] = expectedOutcome(caller.permissions, type, 200);
      expect(await storedEvents(endpoint.id), type).toEqual(answer.status === 200 ? [type] : before);
    }
    expect(actual).toEqual(expected);
  });

  it.each(callersOf(updateWebhookEndpointEndpoint))(
    "%s changes only the URL of an endpoint hearing each event type",
    async (name) => {
      const caller = setup.callers.get(name)!;
      const endpoint = await setup.endpointHearing(["webhook.test"]);
      const actual: Record<string, Outcome> = {};
      const expected: Record<string, Outcome> = {};
      for (const type of EVENT_TYPE_NAMES) {
        // As if someone who may read it had subscribed the endpoint to this event type.
        await db().webhookEndpoint.update({
          where: { id: endpoint.id },
          data: { subscribedEvents: [type], url: "https://hooks.example.com/all" },
        });
        const answer = await updateAs(caller, endpoint.id, { url: "https://elsewhere.example.net/in" });
        actual[type] = outcome(answer);
        expected[type] = expectedOutcome(caller.permissions, type, 200);
        const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
        expect(row.url, type).toBe(
          answer.status === 200 ? "https://elsewhere.example.net/in" : "https://hooks.example.com/all",
        );
        expect(jsonNames(row.subscribedEvents, isEventType), type).toEqual([type]);
      }
      expect(actual).toEqual(expected);
    },
  );

  it("a new URL also needs the event types of the deliveries still pending there, though the endpoint no longer hears them", async () => {
    const endpoint = await setup.endpointHearing(["kyc.profile.updated", "transfer.created"]);
    expect(
      await emitEvent(
        "kyc.profile.updated",
        { firstName: "Ada" },
        { accountId: setup.platform.id, platformId: setup.platform.id },
      ),
    ).toBe(1);
    const developer = setup.callers.get("developer")!;
    // Hearing only what a developer may read now; the kyc delivery is still pending (its receiver was down, say).
    expect((await updateAs(developer, endpoint.id, { events: ["transfer.created"] })).status).toBe(200);
    const moved = await updateAs(developer, endpoint.id, { url: "https://elsewhere.example.net/in" });
    expect(moved.status).toBe(403);
    expect(moved.body).toMatchObject({ error_code: "err_forbidden", details: { permission: "kyc:read" } });
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).url).toBe(
      "https://hooks.example.com/all",
    );
    // Once nothing unreadable is pending, the URL may change.
    await db().webhookDelivery.updateMany({
      where: { webhookEndpointId: endpoint.id },
      data: { status: "failed", nextAttemptAt: null },
    });
    expect((await updateAs(developer, endpoint.id, { url: "https://elsewhere.example.net/in" })).status).toBe(200);
  });

  it("a change of neither events nor URL (description, enabled) needs no read permission of what the endpoint hears", async () => {
    const endpoint = await setup.endpointHearing(EVENT_TYPE_NAMES);
    const key = setup.callers.get(RESTRICTED_KEY)!;
    const changed = await updateAs(key, endpoint.id, { description: "Payouts", enabled: false });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ description: "Payouts", enabled: false, subscribedEvents: EVENT_TYPE_NAMES });
  });
});

describe("the delivery log and retries: eventData and retry only for a caller who may read the event's resource", () => {
  let endpointId = "";
  let logSetup: Awaited<ReturnType<typeof platformWithCallers>>;
  /** What each event type's delivery carries: a marker no hidden delivery may show. */
  const dataOf = (type: EventType) => ({ marker: `data of ${type}` });

  beforeAll(async () => {
    logSetup = await platformWithCallers();
    const endpoint = await logSetup.endpointHearing(EVENT_TYPE_NAMES);
    endpointId = endpoint.id;
    for (const type of EVENT_TYPE_NAMES) {
      expect(
        await emitEvent(type, dataOf(type), { accountId: logSetup.platform.id, platformId: logSetup.platform.id }),
      ).toBe(1);
    }
  });

  it.each(callersOf(listWebhookDeliveriesEndpoint))(
    "%s reads the log holding one delivery of every event type",
    async (name) => {
      const caller = logSetup.callers.get(name)!;
      const { session, apiKey } = caller.as();
      const answer = await call(listDeliveries, {
        session,
        apiKey,
        params: { id: endpointId },
        path: `/v1/webhook_endpoints/${endpointId}/events?limit=100`,
      });
      expect(answer.status).toBe(200);
      const shown = Object.fromEntries(answer.body.items.map((item) => [item.eventType, item.eventData]));
      const expected = Object.fromEntries(
        EVENT_TYPE_NAMES.map((type) => [
          type,
          expectedRefusal(caller.permissions, type) ? null : { ...dataOf(type), accountId: logSetup.platform.id },
        ]),
      );
      expect(shown).toEqual(expected);
      const text = JSON.stringify(answer.body);
      for (const type of EVENT_TYPE_NAMES)
        if (expectedRefusal(caller.permissions, type)) expect(text).not.toContain(dataOf(type).marker);
    },
  );

  it.each(callersOf(retryWebhookDeliveryEndpoint))("%s retries a delivery of every event type", async (name) => {
    const caller = logSetup.callers.get(name)!;
    await db().webhookDelivery.updateMany({
      where: { webhookEndpointId: endpointId },
      data: { status: "failed", nextAttemptAt: null },
    });
    const deliveries = await db().webhookDelivery.findMany({ where: { webhookEndpointId: endpointId } });
    const actual: Record<string, Outcome> = {};
    const expected: Record<string, Outcome> = {};
    for (const delivery of deliveries) {
      const type = delivery.eventType as EventType;
      const answer = await call(retry, {
        method: "POST",
        path: `/v1/webhook_endpoints/${endpointId}/events/${delivery.id}/retry`,
        params: { id: endpointId, eventId: delivery.id },
        ...caller.as(),
      });
      actual[type] = outcome(answer);
      expected[type] = expectedOutcome(caller.permissions, type, 200);
      const row = await db().webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
      expect(row.status, type).toBe(answer.status === 200 ? "pending" : "failed");
      if (answer.status === 200)
        expect(answer.body.eventData, type).toEqual({ ...dataOf(type), accountId: logSetup.platform.id });
    }
    expect(Object.keys(actual).sort()).toEqual([...EVENT_TYPE_NAMES].sort());
    expect(actual).toEqual(expected);
  });
});

describe("the third attack, replayed with real data", () => {
  it("a developer neither subscribes to applicants and employees nor reads them in a log an owner subscribed", async () => {
    const { owner, callers, endpointHearing } = await platformWithCallers();
    const endpoint = await endpointHearing(EVENT_TYPE_NAMES);
    const profile = await call(updateProfile, {
      method: "POST",
      session: owner.session,
      body: { firstName: "Augusta", lastName: "Lovelace-Byron", dateOfBirth: "1985-12-10" },
    });
    expect(profile.status).toBe(200);
    const invited = await call(invite, {
      method: "POST",
      session: owner.session,
      totp: owner.authenticator!.nextCode(),
      body: { name: "Invitee", email: "bound-by-read.invitee@example.com", role: "viewer" },
    });
    expect(invited.status).toBe(201);
    const log = (caller: Caller) => {
      const { session, apiKey } = caller.as();
      return call(listDeliveries, {
        session,
        apiKey,
        params: { id: endpoint.id },
        path: `/v1/webhook_endpoints/${endpoint.id}/events`,
      });
    };
    const developer = await log(callers.get("developer")!);
    expect(developer.status).toBe(200);
    expect(Object.fromEntries(developer.body.items.map((item) => [item.eventType, item.eventData]))).toEqual({
      "employee.invited": null,
      "kyc.profile.updated": null,
    });
    for (const secret of ["Lovelace-Byron", "1985-12-10", "bound-by-read.invitee@example.com"])
      expect(JSON.stringify(developer.body)).not.toContain(secret);
    const viewer = await log(callers.get("viewer")!);
    expect(JSON.stringify(viewer.body)).toContain("Lovelace-Byron");
    expect(JSON.stringify(viewer.body)).toContain("bound-by-read.invitee@example.com");
  });
});
