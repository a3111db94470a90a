import { describe, expect, it } from "vitest";
import { POST as retry } from "@/app/v1/webhook_endpoints/[id]/events/[eventId]/retry/route";
import { GET as listEvents } from "@/app/v1/webhook_endpoints/[id]/events/route";
import { POST as updateSettings } from "@/app/v1/settings/route";
import { createSession } from "@/lib/auth/sessions";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { sweepRetention } from "@/lib/retention/sweep";
import { signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { withScope } from "@/lib/tenancy";
import { createWebhookEndpoint } from "@/lib/webhooks/webhook-endpoints";

const DAY = 86_400_000;
const ago = (days: number, now = Date.now()) => new Date(now - days * DAY);

/** A platform with an endpoint and deliveries of events `days` old in each status; their ids. */
async function platformWithDeliveries(days: number) {
  const owner = await signedInEmployee({ totp: true });
  const scope = { platformId: owner.account.id, accountId: owner.account.id };
  const endpoint = await withScope(scope, () =>
    createWebhookEndpoint({ url: "https://hooks.example.com/x", events: ["webhook.test"], enabled: true }),
  );
  const delivery = async (status: "pending" | "delivered" | "failed") => {
    const id = newId("evt");
    await db().webhookDelivery.create({
      data: {
        id,
        accountId: owner.account.id,
        webhookEndpointId: endpoint.id,
        eventType: "webhook.test",
        eventData: { secretName: `Ada Lovelace ${id}` },
        occurredAt: ago(days),
        status,
        nextAttemptAt: status === "pending" ? new Date() : null,
      },
    });
    return id;
  };
  return {
    owner,
    endpoint,
    ids: {
      pending: await delivery("pending"),
      delivered: await delivery("delivered"),
      failed: await delivery("failed"),
    },
  };
}

const payloadOf = async (id: string) =>
  (await db().webhookDelivery.findUniqueOrThrow({ where: { id }, select: { eventData: true } })).eventData;

/** Sweeps until this pass ran (another test's pass may hold the lease a moment). */
async function sweep(now = new Date()) {
  for (;;) {
    const result = await sweepRetention({ now: () => now, owner: "retention-test" });
    if (result) return result;
  }
}

describe("the retention sweep", () => {
  it("removes the payloads of deliveries older than the platform's days, keeps the rows and any still attempted", async () => {
    const old = await platformWithDeliveries(31);
    const recent = await platformWithDeliveries(29);
    await sweep();
    expect(await payloadOf(old.ids.delivered)).toBeNull();
    expect(await payloadOf(old.ids.failed)).toBeNull();
    expect(await payloadOf(old.ids.pending)).not.toBeNull();
    for (const id of Object.values(recent.ids)) expect(await payloadOf(id)).not.toBeNull();
    // The row stays, with its status and dates; the API shows it without data.
    const listed = await call(listEvents, {
      path: `/v1/webhook_endpoints/${old.endpoint.id}/events`,
      params: { id: old.endpoint.id },
      session: old.owner.session,
    });
    expect(listed.status).toBe(200);
    const items = (listed.body as { items: { id: string; status: string; eventData: unknown }[] }).items;
    expect(items.find((item) => item.id === old.ids.delivered)).toMatchObject({ status: "delivered", eventData: null });
    // It cannot be sent again without its payload.
    const retried = await call(retry, {
      method: "POST",
      path: `/v1/webhook_endpoints/${old.endpoint.id}/events/${old.ids.delivered}/retry`,
      params: { id: old.endpoint.id, eventId: old.ids.delivered },
      session: old.owner.session,
    });
    expectError(retried, 409, "err_conflict");
    expect(retried.body.message).toMatch(/payload was removed/);
    // Each platform's own setting: a shorter one takes the 29-day-old payloads too.
    const shorter = await call(updateSettings, {
      method: "POST",
      session: recent.owner.session,
      totp: recent.owner.authenticator!.nextCode(),
      body: { retention: { webhookPayloadDays: 7 } },
    });
    expect(shorter.status).toBe(200);
    await sweep();
    expect(await payloadOf(recent.ids.delivered)).toBeNull();
    expect(await payloadOf(recent.ids.pending)).not.toBeNull();
  });

  it("deletes sessions ended longer ago than the platform's days, and no other", async () => {
    const { employee, account } = await signedInEmployee();
    const now = Date.now();
    const sessionEnded = async (end: Partial<{ revokedAt: Date; expiresAt: Date; lastSeenAt: Date }>) => {
      await createSession({ employeeId: employee.id, ip: "127.0.0.1" });
      const latest = await db().session.findFirstOrThrow({
        where: { employeeId: employee.id },
        orderBy: { createdAt: "desc" },
      });
      await db().session.update({ where: { id: latest.id }, data: end });
      return latest.id;
    };
    const kept = [
      await sessionEnded({}),
      await sessionEnded({ revokedAt: ago(29, now) }),
      await sessionEnded({ expiresAt: ago(29, now) }),
    ];
    const removed = [
      await sessionEnded({ revokedAt: ago(31, now) }),
      await sessionEnded({ expiresAt: ago(31, now) }),
      await sessionEnded({ lastSeenAt: ago(32, now) }),
    ];
    const result = await sweep(new Date(now));
    expect(result.sessions).toBeGreaterThanOrEqual(3);
    const left = (await db().session.findMany({ where: { employee: { accountId: account.id } } })).map((row) => row.id);
    for (const id of kept) expect(left).toContain(id);
    for (const id of removed) expect(left).not.toContain(id);
  });
});

describe("retention settings", () => {
  it("are the owners' alone, within their limits, and audited", async () => {
    const owner = await signedInEmployee({ totp: true });
    const admin = await signedInEmployee({ totp: true, role: "admin", platform: owner.account });
    const change = (who: typeof owner, retention: unknown) =>
      call(updateSettings, {
        method: "POST",
        session: who.session,
        totp: who.authenticator!.nextCode(),
        body: { retention },
      });
    const byAdmin = await change(admin, { sessionDays: 10 });
    expectError(byAdmin, 403, "err_forbidden");
    expect(byAdmin.body.details).toEqual({ permission: "owners" });
    for (const [field, value] of [
      ["webhookPayloadDays", 0],
      ["webhookPayloadDays", 3651],
      ["sessionDays", 366],
      ["recordsYears", 11],
      ["recordsYears", 2.5],
    ] as const)
      expectError(await change(owner, { [field]: value }), 422, "err_validation");
    const changed = await change(owner, { sessionDays: 10, recordsYears: 7 });
    expect(changed.status).toBe(200);
    expect((changed.body as { retention: unknown }).retention).toEqual({
      webhookPayloadDays: 30,
      sessionDays: 10,
      recordsYears: 7,
    });
    const [event] = await db().auditEvent.findMany({
      where: { platformId: owner.account.id, action: "settings.update" },
      orderBy: { at: "desc" },
      take: 1,
    });
    expect(JSON.stringify(event!.details)).toContain('"sessionDays":10');
  });
});
