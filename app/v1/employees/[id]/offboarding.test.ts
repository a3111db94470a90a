import { describe, expect, it } from "vitest";
import { GET as listKeys, POST as issueKey } from "@/app/v1/api_keys/route";
import { POST as createEndpoint } from "@/app/v1/webhook_endpoints/route";
import { DEFAULT_KEY_PERMISSIONS, maySeeDerived, ROLE_PERMISSIONS } from "@/lib/auth/permissions";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { apiKeyFor, inDays, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { EVENT_TYPE_NAMES } from "@/lib/webhooks/event-types";
import { issueApiKey, rollApiKey } from "@/lib/api-keys/api-keys";
import { withScope } from "@/lib/tenancy";
import { createWebhookEndpoint } from "@/lib/webhooks/webhook-endpoints";
import { GET as listCredentials } from "./credentials/route";
import { DELETE } from "./route";

// Offboarding revokes what the employee created (docs/api.md, Employees): the keys and webhook endpoints a
// deactivated employee made, directly or through a key of theirs, in any account of the platform.

type Staff = Awaited<ReturnType<typeof signedInEmployee>>;
/** Who acts: a signed-in employee (with a fresh code each time) or a key. */
type By = Staff | { apiKey: string };
const credentialOf = (by: By) =>
  "apiKey" in by ? { apiKey: by.apiKey } : { session: by.session, totp: by.authenticator!.nextCode() };

const issue = (by: By, extra: { accountId?: string; name?: string } = {}) =>
  call(issueKey, {
    method: "POST",
    ...credentialOf(by),
    headers: extra.accountId ? { "service-account-id": extra.accountId } : {},
    body: { expiresAt: inDays(30), name: extra.name ?? "made by the leaver" },
  }).then((answer) => {
    expect(answer.status).toBe(201);
    return { id: answer.body.id, secret: answer.body.secret };
  });

/** What the leaver (a developer) and their keys may subscribe to: only what a developer may read. */
const HEARD = EVENT_TYPE_NAMES.filter((type) => maySeeDerived({ permissions: ROLE_PERMISSIONS.developer }, type));

const hook = (by: By, extra: { accountId?: string; url?: string } = {}) =>
  call(createEndpoint, {
    method: "POST",
    ...credentialOf(by),
    headers: extra.accountId ? { "service-account-id": extra.accountId } : {},
    body: { url: extra.url ?? "https://leaver.example.com/hooks", events: HEARD },
  }).then((answer) => {
    expect(answer.status).toBe(201);
    return answer.body.id;
  });

const offboard = (by: By, id: string, query = "") =>
  call(DELETE, { method: "DELETE", path: `/v1/employees/${id}${query}`, ...credentialOf(by), params: { id } });

/** Whether a key still opens the API. */
const keyWorks = async (secret: string) => (await call(listKeys, { apiKey: secret })).status === 200;
const endpointRow = (id: string) => db().webhookEndpoint.findUniqueOrThrow({ where: { id } });
const deliveriesTo = (id: string) => db().webhookDelivery.count({ where: { webhookEndpointId: id } });

/** A platform with its owner, a developer who is about to leave, and a sub-account. */
async function platformWithLeaver() {
  const owner = await signedInEmployee({ totp: true });
  const leaver = await signedInEmployee({ totp: true, role: "developer", platform: owner.account });
  const sub = await db().account.create({
    data: { id: newId("acct"), platformId: owner.account.id, parentId: owner.account.id, name: "Sub" },
  });
  return { owner, leaver, sub };
}

describe("DELETE /v1/employees/{id}: the credentials the employee created", () => {
  it("without revokeCredentials: lists the keys and endpoints they made, and revokes nothing", async () => {
    const { owner, leaver } = await platformWithLeaver();
    const key = await issue(leaver);
    const endpoint = await hook(leaver);
    const response = await offboard(owner, leaver.employee.id);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: leaver.employee.id, status: "deactivated" });
    expect(response.body.createdCredentials).toEqual({ apiKeys: [key.id], webhookEndpoints: [endpoint] });
    expect(await keyWorks(key.secret)).toBe(true);
    expect(await endpointRow(endpoint)).toMatchObject({ enabled: true });
    // Still enabled, so it still hears events.
    await issue(owner);
    expect(await deliveriesTo(endpoint)).toBeGreaterThan(0);
    const audit = await db().auditEvent.findFirstOrThrow({
      where: { action: "employee.deactivate", targetId: leaver.employee.id },
    });
    expect(audit.details).toEqual({
      before: { status: "active" },
      after: { status: "deactivated", deactivatedAt: response.body.deactivatedAt },
      revokeCredentials: false,
    });
  });

  it("with revokeCredentials=true: the keys answer 401, the endpoints are disabled and receive nothing more, in one audited change", async () => {
    const { owner, leaver } = await platformWithLeaver();
    const ownersEndpoint = await hook(owner, { url: "https://owner.example.com/hooks" });
    const keys = [await issue(leaver), await issue(leaver)];
    const endpoint = await hook(leaver);
    const before = await deliveriesTo(endpoint);
    const response = await offboard(owner, leaver.employee.id, "?revokeCredentials=true");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: leaver.employee.id, status: "deactivated" });
    const keyIds = keys.map((key) => key.id).sort();
    expect({
      ...response.body.createdCredentials,
      apiKeys: [...response.body.createdCredentials.apiKeys].sort(),
    }).toEqual({ apiKeys: keyIds, webhookEndpoints: [endpoint] });
    for (const key of keys) expect(await keyWorks(key.secret)).toBe(false);
    expect(await endpointRow(endpoint)).toMatchObject({ enabled: false, deletedAt: null });
    // Each revocation is announced like a revoke on its own; the leaver's endpoint heard none of it.
    const revokedEvents = await db().webhookDelivery.findMany({
      where: { webhookEndpointId: ownersEndpoint, eventType: "api_key.revoked" },
    });
    expect(revokedEvents.map((event) => (event.eventData as { id: string }).id).sort()).toEqual(keyIds);
    expect(await deliveriesTo(endpoint)).toBe(before);
    // Later events do not reach it either.
    await issue(owner);
    expect(await deliveriesTo(endpoint)).toBe(before);
    expect(
      await db().webhookDelivery.count({ where: { webhookEndpointId: ownersEndpoint, eventType: "api_key.created" } }),
    ).toBeGreaterThan(0);
    const audit = await db().auditEvent.findFirstOrThrow({
      where: { action: "employee.deactivate", targetId: leaver.employee.id },
    });
    expect(audit.details).toMatchObject({
      before: { status: "active" },
      after: { status: "deactivated" },
      revokeCredentials: true,
      revokedApiKeys: response.body.createdCredentials.apiKeys,
      disabledWebhookEndpoints: [endpoint],
    });
  });

  it("reaches keys issued for sub-accounts, and what their keys made, at any depth (through a revoked key too)", async () => {
    const { owner, leaver, sub } = await platformWithLeaver();
    const own = await issue(leaver);
    const forSub = await issue(leaver, { accountId: sub.id });
    // own made a key, which made a key and an endpoint in the sub-account: two hops from the leaver.
    const child = await issue({ apiKey: own.secret });
    const grandchild = await issue({ apiKey: child.secret }, { accountId: sub.id });
    const grandchildHook = await hook({ apiKey: child.secret }, { accountId: sub.id });
    const subHook = await hook({ apiKey: forSub.secret });
    // A key that was revoked before still made keys that work.
    const middle = await issue(leaver);
    const orphan = await issue({ apiKey: middle.secret });
    await db().apiKey.update({ where: { id: middle.id }, data: { revokedAt: new Date() } });
    const listed = await call(listCredentials, { session: owner.session, params: { id: leaver.employee.id } });
    expect(listed.status).toBe(200);
    const keyIds = [own.id, forSub.id, child.id, grandchild.id, orphan.id];
    expect(listed.body.apiKeys.map((key) => key.id).sort()).toEqual([...keyIds].sort());
    expect(listed.body.webhookEndpoints.map((endpoint) => endpoint.id).sort()).toEqual(
      [grandchildHook, subHook].sort(),
    );
    const response = await offboard(owner, leaver.employee.id, "?revokeCredentials=true");
    expect(response.status).toBe(200);
    expect([...response.body.createdCredentials.apiKeys].sort()).toEqual([...keyIds].sort());
    expect([...response.body.createdCredentials.webhookEndpoints].sort()).toEqual([grandchildHook, subHook].sort());
    for (const key of [own, forSub, child, grandchild, orphan]) expect(await keyWorks(key.secret)).toBe(false);
    for (const id of [grandchildHook, subHook]) expect(await endpointRow(id)).toMatchObject({ enabled: false });
  });

  it("leaves alone other employees' credentials, another platform's, and ones already dead", async () => {
    const { owner, leaver } = await platformWithLeaver();
    const colleague = await signedInEmployee({ totp: true, role: "developer", platform: owner.account });
    const colleagues = { key: await issue(colleague), endpoint: await hook(colleague) };
    const ownersKey = await issue(owner);
    // Another platform's key and endpoint, marked (by hand) as if the leaver had made them: the platform bounds the search.
    const elsewhere = await signedInEmployee({ totp: true });
    const strangerKey = await issue(elsewhere);
    const strangerEndpoint = await hook(elsewhere);
    const forged = { createdByType: "employee" as const, createdById: leaver.employee.id };
    await db().apiKey.update({ where: { id: strangerKey.id }, data: forged });
    await db().webhookEndpoint.update({ where: { id: strangerEndpoint }, data: forged });
    // Already dead: expired, revoked, deleted, disabled.
    const live = await issue(leaver);
    const [expired, revoked] = [await issue(leaver), await issue(leaver)];
    // new Date(), not Date.now(): the authenticator moves Date.now ahead (lib/testing/http.ts).
    const revokedAt = new Date(new Date().getTime() - 60_000);
    await db().apiKey.update({ where: { id: expired.id }, data: { expiresAt: revokedAt } });
    await db().apiKey.update({ where: { id: revoked.id }, data: { revokedAt } });
    const [deleted, disabled] = [await hook(leaver), await hook(leaver)];
    await db().webhookEndpoint.update({ where: { id: deleted }, data: { deletedAt: new Date(), enabled: false } });
    await db().webhookEndpoint.update({ where: { id: disabled }, data: { enabled: false } });
    const listed = await call(listCredentials, { session: owner.session, params: { id: leaver.employee.id } });
    expect(listed.body.apiKeys.map((key) => key.id)).toEqual([live.id]);
    expect(listed.body.webhookEndpoints).toEqual([]);
    const response = await offboard(owner, leaver.employee.id, "?revokeCredentials=true");
    expect(response.status).toBe(200);
    expect(response.body.createdCredentials).toEqual({ apiKeys: [live.id], webhookEndpoints: [] });
    for (const key of [colleagues.key, ownersKey, strangerKey]) expect(await keyWorks(key.secret)).toBe(true);
    for (const id of [colleagues.endpoint, strangerEndpoint])
      expect(await endpointRow(id)).toMatchObject({ enabled: true });
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: revoked.id } })).revokedAt).toEqual(revokedAt);
  });

  it("an employee already deactivated: 200, unchanged, and revokeCredentials=true still revokes what is left", async () => {
    const { owner, leaver } = await platformWithLeaver();
    const key = await issue(leaver);
    const endpoint = await hook(leaver);
    const first = await offboard(owner, leaver.employee.id);
    expect(first.body.createdCredentials).toEqual({ apiKeys: [key.id], webhookEndpoints: [endpoint] });
    const cleanUp = await offboard(owner, leaver.employee.id, "?revokeCredentials=true");
    expect(cleanUp.status).toBe(200);
    const { createdCredentials, ...employee } = cleanUp.body;
    const { createdCredentials: _listed, ...firstEmployee } = first.body;
    expect(employee).toEqual(firstEmployee);
    expect(createdCredentials).toEqual({ apiKeys: [key.id], webhookEndpoints: [endpoint] });
    expect(await keyWorks(key.secret)).toBe(false);
    expect(await endpointRow(endpoint)).toMatchObject({ enabled: false });
    const again = await offboard(owner, leaver.employee.id, "?revokeCredentials=true");
    expect(again.status).toBe(200);
    expect(again.body.createdCredentials).toEqual({ apiKeys: [], webhookEndpoints: [] });
  });

  it("one change: when the deactivation is refused (the last active owner, 409), nothing is revoked either", async () => {
    const { owner } = await platformWithLeaver();
    const key = await issue(owner);
    const endpoint = await hook(owner);
    const refused = await offboard(owner, owner.employee.id, "?revokeCredentials=true");
    expectError(refused, 409, "err_conflict");
    expect(await keyWorks(key.secret)).toBe(true);
    expect(await endpointRow(endpoint)).toMatchObject({ enabled: true });
    expect(await db().apiKey.count({ where: { id: key.id, revokedAt: null } })).toBe(1);
  });

  it("422 for a revokeCredentials that is not true or false; nothing changed", async () => {
    const { owner, leaver } = await platformWithLeaver();
    const key = await issue(leaver);
    for (const value of ["yes", "1", "TRUE", ""]) {
      const response = await offboard(owner, leaver.employee.id, `?revokeCredentials=${value}`);
      expectError(response, 422, "err_validation");
      expect(Object.keys(response.body.details ?? {})).toEqual(["revokeCredentials"]);
    }
    expect((await db().employee.findUniqueOrThrow({ where: { id: leaver.employee.id } })).status).toBe("active");
    expect(await keyWorks(key.secret)).toBe(true);
  });

  it("403 from a key that lacks a permission of a key it would revoke: nothing changes, the employee stays active", async () => {
    const { owner, leaver } = await platformWithLeaver();
    const key = await issue(leaver);
    const narrow = await apiKeyFor(owner.account.id, {
      permissions: ["employees:read", "employees:write", "api_keys:write", "webhooks:write"],
    });
    const refused = await offboard({ apiKey: narrow.secret }, leaver.employee.id, "?revokeCredentials=true");
    expect(refused.status).toBe(403);
    // The leaver's key holds accounts:read (first in the table), which the offboarding key lacks.
    expect(refused.body.details).toEqual({ permission: "accounts:read" });
    expect((await db().employee.findUniqueOrThrow({ where: { id: leaver.employee.id } })).status).toBe("active");
    expect(await keyWorks(key.secret)).toBe(true);
    const strong = await apiKeyFor(owner.account.id, { permissions: [...DEFAULT_KEY_PERMISSIONS, "employees:write"] });
    const done = await offboard({ apiKey: strong.secret }, leaver.employee.id, "?revokeCredentials=true");
    expect(done.status).toBe(200);
    expect(await keyWorks(key.secret)).toBe(false);
  });
});

describe("a credential made by a creator offboarded after the request was authenticated", () => {
  // The request authenticated before the offboarding committed, and its transaction runs after it: the
  // domain functions see the creator as the request's transaction does, and refuse.
  it("a deactivated employee or a revoked or expired key makes no key, no rolled key and no endpoint (401), and nothing is written", async () => {
    const { owner, leaver } = await platformWithLeaver();
    const own = await issue(leaver);
    const expired = await apiKeyFor(owner.account.id);
    await db().apiKey.update({ where: { id: expired.id }, data: { expiresAt: new Date("2026-01-01T00:00:00Z") } });
    expect((await offboard(owner, leaver.employee.id, "?revokeCredentials=true")).status).toBe(200);
    const scope = { platformId: owner.account.id, accountId: owner.account.id };
    const before = { keys: await db().apiKey.count(), endpoints: await db().webhookEndpoint.count() };
    const creators = [
      { type: "employee" as const, id: leaver.employee.id },
      { type: "api_key" as const, id: own.id },
      { type: "api_key" as const, id: expired.id },
    ];
    for (const createdBy of creators) {
      await expect(withScope(scope, () => issueApiKey({ createdBy, expiresAt: inDays(30) }))).rejects.toMatchObject({
        kind: "unauthenticated",
      });
      await expect(
        withScope(scope, () =>
          createWebhookEndpoint({
            url: "https://late.example.com/hooks",
            events: ["transfer.created"],
            enabled: true,
            createdBy,
          }),
        ),
      ).rejects.toMatchObject({ kind: "unauthenticated" });
      const strong = await apiKeyFor(owner.account.id, {});
      await expect(
        withScope(scope, () =>
          rollApiKey({
            issuer: { ...createdBy, permissions: DEFAULT_KEY_PERMISSIONS },
            keyId: strong.id,
            expiresAt: inDays(30),
            overlapSeconds: 0,
          }),
        ),
      ).rejects.toMatchObject({ kind: "unauthenticated" });
      expect(await db().apiKey.findUniqueOrThrow({ where: { id: strong.id } })).toMatchObject({ rolledToId: null });
      before.keys += 1;
    }
    expect({ keys: await db().apiKey.count(), endpoints: await db().webhookEndpoint.count() }).toEqual(before);
    // A live creator still makes them.
    const live = { type: "employee" as const, id: owner.employee.id };
    await expect(
      withScope(scope, () => issueApiKey({ createdBy: live, expiresAt: inDays(30) })),
    ).resolves.toMatchObject({ id: expect.any(String) });
  });
});

describe("GET /v1/employees/{id}/credentials", () => {
  it("200: the still-working keys (name, prefix) and endpoints (URL) they created, oldest first", async () => {
    const { owner, leaver } = await platformWithLeaver();
    const key = await issue(leaver, { name: "Payroll export" });
    const endpoint = await hook(leaver, { url: "https://payroll.example.com/hooks" });
    const response = await call(listCredentials, { session: owner.session, params: { id: leaver.employee.id } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      apiKeys: [
        {
          id: key.id,
          accountId: owner.account.id,
          name: "Payroll export",
          prefix: key.secret.slice(0, 12),
          expiresAt: expect.any(String),
          createdAt: expect.any(String),
          createdBy: { type: "employee", id: leaver.employee.id },
        },
      ],
      webhookEndpoints: [
        {
          id: endpoint,
          accountId: owner.account.id,
          url: "https://payroll.example.com/hooks",
          description: null,
          createdAt: expect.any(String),
          createdBy: { type: "employee", id: leaver.employee.id },
        },
      ],
    });
    expect(JSON.stringify(response.body)).not.toContain(key.secret);
  });

  it("403 naming api_keys:read or webhooks:read when the caller cannot read what it shows", async () => {
    const { owner, leaver } = await platformWithLeaver();
    for (const [permissions, missing] of [
      [["employees:read", "webhooks:read"], "api_keys:read"],
      [["employees:read", "api_keys:read"], "webhooks:read"],
      [["api_keys:read", "webhooks:read"], "employees:read"],
    ] as const) {
      const key = await apiKeyFor(owner.account.id, { permissions });
      const response = await call(listCredentials, { apiKey: key.secret, params: { id: leaver.employee.id } });
      expect(response.status).toBe(403);
      expect(response.body.details).toEqual({ permission: missing });
    }
    const reader = await apiKeyFor(owner.account.id, {
      permissions: ["employees:read", "api_keys:read", "webhooks:read"],
    });
    expect((await call(listCredentials, { apiKey: reader.secret, params: { id: leaver.employee.id } })).status).toBe(
      200,
    );
  });

  it("404 for another platform's employee", async () => {
    const { owner } = await platformWithLeaver();
    const theirs = await signedInEmployee();
    const response = await call(listCredentials, { session: owner.session, params: { id: theirs.employee.id } });
    expectError(response, 404, "err_not_found");
  });
});
