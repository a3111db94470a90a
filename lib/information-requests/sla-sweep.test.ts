import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { jsonObject } from "@/lib/db/json";
import { releaseLease, takeLease } from "@/lib/db/lease";
import { resetEnv } from "@/lib/env";
import { raiseInformationRequest } from "@/lib/information-requests/information-requests";
import type { InformationRequestStatus } from "@/lib/information-requests/schemas";
import { announceBreach, sweepSlaBreaches } from "@/lib/information-requests/sla-sweep";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { withScope } from "@/lib/tenancy";
import { createWebhookEndpoint } from "@/lib/webhooks/webhook-endpoints";

// The file's tests share one database: each looks only at its own requests, and every sweep here runs
// as one owner, so it always holds the sweep's lease.
const OWNER = "sla-sweep-test";
const sweep = (now: Date) => sweepSlaBreaches({ owner: OWNER, now: () => now });

async function platformListening() {
  const platform = await platformWithKey();
  const endpoint = await withScope(platform.scope, () =>
    createWebhookEndpoint({
      url: "http://127.0.0.1:9/hooks",
      events: ["information_request.sla_breached"],
      enabled: true,
    }),
  );
  return { ...platform, endpoint };
}

/** A request of the platform due at `dueAt`, in `status`. */
async function requestDue(scope: { platformId: string; accountId: string }, dueAt: Date | null, status?: string) {
  const raised = await withScope(scope, () => raiseInformationRequest({ kind: "due_diligence" }));
  return db().informationRequest.update({
    where: { id: raised.id },
    data: { dueAt, ...(status ? { status: status as InformationRequestStatus } : {}) },
  });
}

const timelineOf = (informationRequestId: string) =>
  db().informationRequestEvent.findMany({ where: { informationRequestId }, orderBy: { at: "asc" } });

const breachEvents = (webhookEndpointId: string) =>
  db().webhookDelivery.findMany({
    where: { webhookEndpointId, eventType: "information_request.sla_breached" },
    orderBy: { occurredAt: "asc" },
  });

describe("the SLA sweep", () => {
  it("announces a breach once: slaBreachedAt, a system timeline entry and information_request.sla_breached", async () => {
    const { scope, endpoint, account } = await platformListening();
    const dueAt = new Date(Date.now() - 60_000);
    const request = await requestDue(scope, dueAt);
    const at = new Date();

    expect(await sweep(at)).toBeGreaterThanOrEqual(1);
    expect(await sweep(new Date(at.getTime() + 1000))).toBe(0);

    const row = await db().informationRequest.findUniqueOrThrow({ where: { id: request.id } });
    expect(row.slaBreachedAt?.getTime()).toBe(at.getTime());
    const timeline = await timelineOf(request.id);
    expect(timeline).toHaveLength(1);
    expect(timeline[0]).toMatchObject({
      type: "sla_breached",
      actorType: "system",
      actorId: null,
      accountId: account.id,
      at,
    });
    expect(jsonObject(timeline[0]!.data)).toEqual({ dueAt: dueAt.toISOString() });
    const events = await breachEvents(endpoint.id);
    expect(events).toHaveLength(1);
    expect(jsonObject(events[0]!.eventData)).toMatchObject({
      id: request.id,
      status: "requested",
      accountId: account.id,
    });
    expect(events[0]!.occurredAt).toEqual(at);
  });

  it("not before dueAt: at dueAt itself, and not a millisecond earlier", async () => {
    const { scope, endpoint } = await platformListening();
    const dueAt = new Date(Date.now() + 86_400_000);
    const request = await requestDue(scope, dueAt);
    await sweep(new Date(dueAt.getTime() - 1));
    expect(await breachEvents(endpoint.id)).toHaveLength(0);
    expect((await db().informationRequest.findUniqueOrThrow({ where: { id: request.id } })).slaBreachedAt).toBeNull();
    await sweep(dueAt);
    expect(await breachEvents(endpoint.id)).toHaveLength(1);
  });

  it("never for a decided request or one without a due date; on_review counts as open", async () => {
    const { scope, endpoint } = await platformListening();
    const past = new Date(Date.now() - 60_000);
    const decided = await Promise.all(
      (["approved", "rejected", "expired"] as const).map((status) => requestDue(scope, past, status)),
    );
    const undated = await requestDue(scope, null);
    const reviewing = await requestDue(scope, past, "on_review");
    await sweep(new Date());
    const events = await breachEvents(endpoint.id);
    expect(events.map((event) => jsonObject(event.eventData).id)).toEqual([reviewing.id]);
    for (const quiet of [...decided, undated]) expect(await timelineOf(quiet.id)).toEqual([]);
  });

  it("of two processes announcing the same breach at once, exactly one does", async () => {
    const { scope, endpoint } = await platformListening();
    const request = await requestDue(scope, new Date(Date.now() - 1000));
    const at = new Date();
    const outcomes = await Promise.all([announceBreach(request.id, at), announceBreach(request.id, at)]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await timelineOf(request.id)).toHaveLength(1);
    expect(await breachEvents(endpoint.id)).toHaveLength(1);
  });

  it("works through more than one batch in one pass", async () => {
    const { scope, endpoint } = await platformListening();
    const start = Date.now() - 3_600_000;
    const requests = [];
    for (let index = 4; index >= 0; index -= 1) requests.push(await requestDue(scope, new Date(start + index * 1000)));
    await sweepSlaBreaches({ owner: OWNER, batchSize: 2 });
    const announced = (await breachEvents(endpoint.id)).map((event) => jsonObject(event.eventData).id);
    expect(announced).toHaveLength(5);
    expect(new Set(announced)).toEqual(new Set(requests.map((request) => request.id)));
  });

  it("a process that does not hold the lease sweeps nothing", async () => {
    const { scope, endpoint } = await platformListening();
    await requestDue(scope, new Date(Date.now() - 1000));
    expect(await sweepSlaBreaches({ owner: "someone-else" })).toBe(0);
    expect(await breachEvents(endpoint.id)).toHaveLength(0);
    expect(await sweep(new Date())).toBeGreaterThanOrEqual(1);
    expect(await breachEvents(endpoint.id)).toHaveLength(1);
  });
});

describe("the breach notice e-mail", () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    process.env.SMTP_URL = sink.url;
    process.env.MAIL_FROM = "Compliance <no-reply@example.com>";
    process.env.APP_ORIGIN = "https://compliance.example.com";
    resetEnv();
  });
  afterAll(async () => {
    for (const name of ["SMTP_URL", "MAIL_FROM", "APP_ORIGIN"]) delete process.env[name];
    resetEnv();
    await sink.close();
  });

  it("goes to the assignee, with a link to the request", async () => {
    const { account, employee } = await signedInEmployee();
    const scope = { platformId: account.id, accountId: account.id };
    const request = await requestDue(scope, new Date(Date.now() - 1000));
    await db().informationRequest.update({ where: { id: request.id }, data: { assigneeId: employee.id } });
    await sweep(new Date());
    const mail = await sink.waitFor(employee.email, /overdue/);
    expect(mail.text).toContain(`https://compliance.example.com/information-requests/${request.id}`);
    expect(sink.received.filter((received) => received.text.includes(request.id))).toHaveLength(1);
  });

  it("not to an assignee who is no longer active, nor for an unassigned request", async () => {
    const { account, employee } = await signedInEmployee();
    const scope = { platformId: account.id, accountId: account.id };
    const assigned = await requestDue(scope, new Date(Date.now() - 1000));
    const unassigned = await requestDue(scope, new Date(Date.now() - 1000));
    await db().informationRequest.update({ where: { id: assigned.id }, data: { assigneeId: employee.id } });
    await db().employee.update({ where: { id: employee.id }, data: { status: "deactivated" } });
    await sweep(new Date());
    // The sweep sends before it returns: what it sent has arrived.
    expect(await timelineOf(assigned.id)).toHaveLength(1);
    expect(await timelineOf(unassigned.id)).toHaveLength(1);
    expect(sink.received.filter((mail) => mail.to.includes(employee.email.toLowerCase()))).toEqual([]);
  });
});

describe("takeLease", () => {
  it("one owner at a time: the holder renews it, another takes it only once it ran out or was released", async () => {
    const name = "lease-test";
    const t0 = new Date();
    const at = (ms: number) => new Date(t0.getTime() + ms);
    expect(await takeLease({ name, owner: "a", ms: 1000, now: t0 })).toBe(true);
    expect(await takeLease({ name, owner: "b", ms: 1000, now: at(500) })).toBe(false);
    expect(await takeLease({ name, owner: "a", ms: 1000, now: at(900) })).toBe(true);
    expect(await takeLease({ name, owner: "b", ms: 1000, now: at(1800) })).toBe(false);
    expect(await takeLease({ name, owner: "b", ms: 1000, now: at(1901) })).toBe(true);
    expect(await takeLease({ name, owner: "a", ms: 1000, now: at(2000) })).toBe(false);
    await releaseLease({ name, owner: "a" });
    expect(await takeLease({ name, owner: "a", ms: 1000, now: at(2100) })).toBe(false);
    await releaseLease({ name, owner: "b" });
    expect(await takeLease({ name, owner: "a", ms: 1000, now: at(2200) })).toBe(true);
  });

  it("of several owners asking at once for a lease nobody holds, exactly one gets it", async () => {
    const owners = ["p1", "p2", "p3", "p4", "p5"];
    const taken = await Promise.all(
      owners.map((owner) => takeLease({ name: "lease-race", owner, ms: 60_000, now: new Date() })),
    );
    expect(taken.filter(Boolean)).toHaveLength(1);
    const row = await db().workerLease.findUniqueOrThrow({ where: { name: "lease-race" } });
    expect(row.owner).toBe(owners[taken.indexOf(true)]);
  });
});
