// The permission walk: every /v1 endpoint against each role and against restricted keys, expecting
// exactly what lib/auth/permissions.ts says. A role without the endpoint's permission gets 403
// err_forbidden naming it; a role with it gets through (for step-up routes: to the code check,
// 400 err_otp_required, as the request carries none); keys are let through on their own list alone.
import { beforeAll, describe, expect, it } from "vitest";
import { createSubAccount } from "@/lib/accounts/accounts";
import {
  EVENT_TYPE_READ_PERMISSIONS,
  KEY_PERMISSIONS,
  PERMISSIONS,
  ROLE_PERMISSIONS,
  ROLES,
  type Permission,
  type Role,
} from "@/lib/auth/permissions";
import { createSession } from "@/lib/auth/sessions";
import { db } from "@/lib/db";
import type { Endpoint } from "@/lib/contract/endpoint";
import type { Handler } from "@/lib/http/route";
import { withScope } from "@/lib/tenancy";
import { apiKeyFor, inDays, signedInEmployee } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { everyRoute, ghostParams, pathFor } from "@/lib/testing/routes";

const routes = await everyRoute();
const guarded = routes.filter(({ endpoint }) => endpoint.auth !== "public");
const keyOf = (endpoint: Endpoint) => `${endpoint.method} ${endpoint.path}`;

/** Valid bodies for the step-up routes, so that an allowed caller gets as far as the code check. */
const stepUpBodies: Record<string, unknown> = {
  "POST /v1/api_keys": { expiresAt: inDays(30) },
  "POST /v1/api_keys/{key}": { cidrAllowlist: [] },
  "POST /v1/api_keys/{key}/roll": { expiresAt: inDays(30) },
  "POST /v1/employees": { name: "Walk invitee", email: "walk-invitee@example.com" },
  "POST /v1/employees/{id}": { role: "viewer" },
  "POST /v1/employees/passkeys": {
    name: "Walk passkey",
    response: {
      id: "AAAA",
      rawId: "AAAA",
      type: "public-key",
      response: { clientDataJSON: "e30", attestationObject: "oA" },
    },
  },
  "POST /v1/settings": {},
  "POST /v1/webhook_endpoints": { url: "https://example.com/walk-hook", events: ["transfer.created"] },
  "POST /v1/webhook_endpoints/{id}": {},
};

/** What a body above needs besides the route's permission: a webhook endpoint hears only what its creator may read. */
const bodyNeeds: Record<string, Permission[]> = {
  "POST /v1/webhook_endpoints": [EVENT_TYPE_READ_PERMISSIONS["transfer.created"]],
};

type Credential = { session: string } | { apiKey: string };

function send({ endpoint, handler }: { endpoint: Endpoint; handler: Handler }, credential: Credential) {
  const params = ghostParams(endpoint);
  return call(handler, {
    method: endpoint.method,
    path: pathFor(endpoint, params),
    params,
    body: endpoint.method === "GET" ? undefined : (stepUpBodies[keyOf(endpoint)] ?? {}),
    ...credential,
  });
}

type Answer = Awaited<ReturnType<typeof send>>;
const show = (answer: Answer) => `${answer.status} ${JSON.stringify(answer.body)}`.slice(0, 300);

let platformId = "";
const sessions = new Map<Role, string>();
let employeeIds: string[] = [];

/** A session of `role` that the call may use up (signing out ends the session it is made with). */
async function sessionOf(role: Role, endpoint: Endpoint) {
  if (keyOf(endpoint) !== "DELETE /v1/sessions/current") return sessions.get(role)!;
  const employeeId = employeeIds[ROLES.indexOf(role)]!;
  return /=([^;]*)/.exec((await createSession({ employeeId, ip: "127.0.0.1" })).cookie)![1]!;
}

beforeAll(async () => {
  const owner = await signedInEmployee({ totp: true, role: "owner" });
  platformId = owner.account.id;
  sessions.set("owner", owner.session);
  employeeIds = [owner.employee.id];
  for (const role of ROLES.slice(1)) {
    const staff = await signedInEmployee({ totp: true, role, platform: owner.account });
    sessions.set(role, staff.session);
    employeeIds.push(staff.employee.id);
  }
});

// The role table, written out by hand (docs/security.md, Who may do what), so that a
// change to lib/auth/permissions.ts or to an endpoint's permission shows up here as a decision.
const SELF_SERVICE = [
  "DELETE /v1/sessions/current",
  "DELETE /v1/sessions/{id}",
  "POST /v1/employees/me/password",
  "POST /v1/employees/totp",
  "POST /v1/employees/totp/confirm",
  "POST /v1/employees/totp/recovery_codes",
  "POST /v1/employees/passkeys/options",
  "POST /v1/employees/passkeys",
  "DELETE /v1/employees/passkeys/{id}",
  "POST /v1/step_up/passkey/options",
];
const SANDBOX = [
  "POST /v1/sandbox/accounts",
  "POST /v1/sandbox/information_requests",
  "POST /v1/sandbox/kyc/submissions",
  "POST /v1/sandbox/platforms",
  "POST /v1/sandbox/recipients",
  "POST /v1/sandbox/transfers",
  "POST /v1/sandbox/virtual_accounts",
  "POST /v1/sandbox/virtual_accounts/{idOrKey}/pay_in",
];
/** Changes only owners make: single sign-on (docs/api.md, Single sign-on). */
const OWNERS_ONLY = ["POST /v1/settings/sso/test"];
const CHANGES_BY_ROLE: Record<Role, "all" | { allBut: string[] } | string[]> = {
  owner: "all",
  admin: { allBut: OWNERS_ONLY },
  developer: [
    ...SELF_SERVICE,
    ...SANDBOX,
    "POST /v1/api_keys",
    "POST /v1/api_keys/{key}",
    "DELETE /v1/api_keys/{key}",
    "POST /v1/api_keys/{key}/roll",
    "POST /v1/feature_flags",
    "POST /v1/accounts/{accountId}",
    "POST /v1/webhook_endpoints",
    "POST /v1/webhook_endpoints/{id}",
    "DELETE /v1/webhook_endpoints/{id}",
    "POST /v1/webhook_endpoints/{id}/events/{eventId}/retry",
    "POST /v1/webhook_endpoints/{id}/test",
  ],
  compliance: [
    ...SELF_SERVICE,
    "POST /v1/information_requests/{id}",
    "POST /v1/information_requests/{id}/status",
    "POST /v1/information_requests/{id}/notes",
    "POST /v1/information_requests/{id}/documents",
    "POST /v1/information_requests/bulk",
    "POST /v1/kyc/submissions/{submissionId}/agreements",
    "POST /v1/kyc/update_profile",
    "POST /v1/delegated_users",
  ],
  viewer: SELF_SERVICE,
};
const READS_REFUSED: Record<Role, string[]> = {
  owner: [],
  admin: [],
  developer: [
    "GET /v1/employees",
    "GET /v1/employees/{id}",
    "GET /v1/employees/{id}/credentials",
    "GET /v1/exports/information_requests",
    "GET /v1/information_requests",
    "GET /v1/information_requests/{id}",
    "GET /v1/information_requests/{id}/notes",
    "GET /v1/information_requests/{id}/documents",
    "GET /v1/information_requests/{id}/documents/{docId}/content",
    "GET /v1/information_requests/{id}/timeline",
    "GET /v1/transfers/{id}/information_requests",
    "GET /v1/kyc/profile",
    "GET /v1/kyc/submissions",
    "GET /v1/kyc/submissions/{submissionId}",
    "GET /v1/kyc/submissions/{submissionId}/beneficiaries",
  ],
  compliance: [
    "GET /v1/api_keys",
    "GET /v1/api_keys/{key}/usage",
    "GET /v1/employees",
    "GET /v1/employees/{id}",
    "GET /v1/employees/{id}/credentials",
    "GET /v1/webhook_endpoints",
    "GET /v1/webhook_endpoints/events",
    "GET /v1/webhook_endpoints/{id}",
    "GET /v1/webhook_endpoints/{id}/events",
  ],
  viewer: [],
};

describe("the role table, as the contract words it", () => {
  const allows = (role: Role, endpoint: Endpoint) =>
    endpoint.permission === null || ROLE_PERMISSIONS[role].includes(endpoint.permission);
  it.each(ROLES)("%s changes exactly what the contract says", (role) => {
    const changes = guarded
      .filter(({ endpoint }) => endpoint.method !== "GET" && allows(role, endpoint))
      .map(({ endpoint }) => keyOf(endpoint));
    const expected = CHANGES_BY_ROLE[role];
    const all = guarded.filter(({ endpoint }) => endpoint.method !== "GET").map(({ endpoint }) => keyOf(endpoint));
    const wanted =
      expected === "all" ? all : "allBut" in expected ? all.filter((key) => !expected.allBut.includes(key)) : expected;
    expect(changes.sort()).toEqual([...wanted].sort());
  });

  it.each(ROLES)("%s reads everything but what the contract keeps from it", (role) => {
    const refused = guarded
      .filter(({ endpoint }) => endpoint.method === "GET" && !allows(role, endpoint))
      .map(({ endpoint }) => keyOf(endpoint));
    expect(refused.sort()).toEqual([...READS_REFUSED[role]].sort());
  });

  it("only owners make or remove owners; no key holds roles, owners or settings:write", () => {
    expect(ROLES.filter((role) => ROLE_PERMISSIONS[role].includes("owners"))).toEqual(["owner"]);
    expect(ROLES.filter((role) => ROLE_PERMISSIONS[role].includes("roles"))).toEqual(["owner", "admin"]);
    expect(KEY_PERMISSIONS.filter((permission) => ["roles", "owners", "settings:write"].includes(permission))).toEqual(
      [],
    );
  });
});

describe("permission walk: each role against every endpoint", () => {
  it("has a valid body for every step-up route that takes one", () => {
    const missing = guarded
      .filter(({ endpoint }) => endpoint.totp && endpoint.body && !(keyOf(endpoint) in stepUpBodies))
      .map(({ endpoint }) => keyOf(endpoint));
    expect(missing).toEqual([]);
  });

  it("every endpoint names a permission from the table, or none for public and self-service routes", () => {
    for (const { endpoint } of routes) {
      if (endpoint.permission !== null) expect(PERMISSIONS).toContain(endpoint.permission);
      if (endpoint.auth === "public") expect(endpoint.permission, keyOf(endpoint)).toBeNull();
    }
  });

  describe.each(ROLES)("%s", (role) => {
    it.each(guarded.map((route) => [keyOf(route.endpoint), route] as const))("%s", async (_, route) => {
      const { endpoint } = route;
      const answer = await send(route, { session: await sessionOf(role, endpoint) });
      const allowed = endpoint.permission === null || ROLE_PERMISSIONS[role].includes(endpoint.permission);
      if (!allowed) {
        expect(answer.status, show(answer)).toBe(403);
        expect(answer.body).toMatchObject({
          error_code: "err_forbidden",
          details: { permission: endpoint.permission },
        });
      } else if (endpoint.totp) {
        expect(answer.status, show(answer)).toBe(400);
        expect(answer.body?.error_code, show(answer)).toBe("err_otp_required");
      } else {
        expect(answer.status, show(answer)).not.toBe(403);
      }
    });
  });
});

/**
 * Views derived from other resources (what a credential may read bounds everything derived from it;
 * docs/security.md, Who may do what) need those resources' read permissions besides their own.
 */
const DERIVED_READS: Record<string, readonly (typeof KEY_PERMISSIONS)[number][]> = {
  "GET /v1/employees/{id}/credentials": ["api_keys:read", "webhooks:read"],
};

describe("permission walk: restricted keys", () => {
  const keyRoutes = guarded.filter(({ endpoint }) => endpoint.auth === "any");

  it.each(keyRoutes.map((route) => [keyOf(route.endpoint), route] as const))("%s", async (_, route) => {
    const { endpoint } = route;
    const needed = endpoint.permission;
    if (needed === null) return;
    const others = KEY_PERMISSIONS.filter((permission) => permission !== needed);
    const without = await apiKeyFor(platformId, { permissions: others, name: "all but one" });
    const refused = await send(route, { apiKey: without.secret });
    expect(refused.status, show(refused)).toBe(403);
    expect(refused.body).toMatchObject({ error_code: "err_forbidden", details: { permission: needed } });
    if (!KEY_PERMISSIONS.includes(needed)) return; // roles, owners, settings:write: no key can be given them
    const derived = [...(DERIVED_READS[keyOf(endpoint)] ?? [])];
    const fromBody = bodyNeeds[keyOf(endpoint)] ?? [];
    for (const also of derived) {
      const lacking = await apiKeyFor(platformId, {
        permissions: [needed, ...fromBody, ...derived.filter((other) => other !== also)],
        name: "all but one read",
      });
      const refusedToo = await send(route, { apiKey: lacking.secret });
      expect(refusedToo.status, show(refusedToo)).toBe(403);
      expect(refusedToo.body).toMatchObject({ error_code: "err_forbidden", details: { permission: also } });
    }
    const only = await apiKeyFor(platformId, { permissions: [needed, ...fromBody, ...derived], name: "just one" });
    const allowed = await send(route, { apiKey: only.secret });
    expect(allowed.status, show(allowed)).not.toBe(403);
  });

  it("employee-only routes refuse every key, whatever it holds", async () => {
    const everything = await apiKeyFor(platformId, { permissions: KEY_PERMISSIONS });
    for (const route of guarded.filter(({ endpoint }) => endpoint.auth === "session")) {
      const answer = await send(route, { apiKey: everything.secret });
      expect(answer.status, `${keyOf(route.endpoint)}: ${show(answer)}`).toBe(403);
      expect(answer.body?.error_code).toBe("err_forbidden");
    }
  });

  it("a sub-account's key with every key permission: platform-wide routes answer 403, the rest do not", async () => {
    const sub = await withScope({ platformId, accountId: platformId }, () =>
      createSubAccount({ name: "Walk sub", parentId: platformId }),
    );
    const key = await apiKeyFor(sub.id, { permissions: KEY_PERMISSIONS });
    for (const route of keyRoutes) {
      if (route.endpoint.permission && !KEY_PERMISSIONS.includes(route.endpoint.permission)) continue;
      const answer = await send(route, { apiKey: key.secret });
      const what = `${keyOf(route.endpoint)}: ${show(answer)}`;
      if (route.endpoint.platformWide) {
        expect(answer.status, what).toBe(403);
        expect(answer.body?.message, what).toMatch(/acts for one account only/);
      } else {
        expect(answer.status, what).not.toBe(403);
      }
    }
  });
});

describe("permission walk: a platform that requires two-factor authentication", () => {
  it("an employee without 2FA may only sign out, ask who they are and enrol; everything else is 403 err_two_factor_required", async () => {
    const owner = await signedInEmployee({ role: "owner" });
    await db().account.update({ where: { id: owner.account.id }, data: { requireTwoFactor: true } });
    for (const route of guarded) {
      const session =
        keyOf(route.endpoint) === "DELETE /v1/sessions/current"
          ? /=([^;]*)/.exec((await createSession({ employeeId: owner.employee.id, ip: null })).cookie)![1]!
          : owner.session;
      const answer = await send(route, { session });
      const what = `${keyOf(route.endpoint)}: ${show(answer)}`;
      if (route.endpoint.beforeTwoFactor) expect(answer.body?.error_code, what).not.toBe("err_two_factor_required");
      else {
        expect(answer.status, what).toBe(403);
        expect(answer.body?.error_code, what).toBe("err_two_factor_required");
      }
    }
    const allowed = guarded
      .filter(({ endpoint }) => endpoint.beforeTwoFactor)
      .map(({ endpoint }) => keyOf(endpoint))
      .sort();
    expect(allowed).toEqual([
      "DELETE /v1/sessions/current",
      "GET /v1/sessions/current",
      "POST /v1/employees/totp",
      "POST /v1/employees/totp/confirm",
    ]);
  });

  it("the same employee with 2FA is not held back", async () => {
    const owner = await signedInEmployee({ role: "owner", totp: true });
    await db().account.update({ where: { id: owner.account.id }, data: { requireTwoFactor: true } });
    const route = guarded.find(({ endpoint }) => keyOf(endpoint) === "GET /v1/employees")!;
    expect((await send(route, { session: owner.session })).status).toBe(200);
  });
});
