import { describe, expect, it } from "vitest";
import { allEndpoints } from "@/lib/endpoints";
import { db } from "@/lib/db";
import type { Endpoint } from "@/lib/contract/endpoint";
import { PASSWORD, apiKeyFor, inDays, platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { Authenticator, ORIGIN, call, type Call } from "@/lib/testing/http";
import { inviteEmployee } from "@/lib/employees/invitations";
import { withScope } from "@/lib/tenancy";
import { handlerFor } from "@/lib/testing/routes";
import { stringFields } from "@/lib/testing/string-fields";

// A response that carries a one-time secret is never kept for Idempotency-Key replay (docs/security.md,
// One-time secrets). The mark is the endpoint definition's `secretResponse`, so this walk finds
// a response schema that carries a secret-looking field without it, and each marked endpoint's repeat
// is tried for real.

/** Field names that hold a secret shown once: a key's secret, a TOTP secret or its URI, codes, tokens, a one-time link. */
const SECRET_NAME =
  /^(secret|uri|token|recoveryCodes?|codes?|password)$|secret$|token$|(invitation|invite|reset|setup|accept|magic|login)\w*(url|link)$/i;

/** The secret-looking fields of an endpoint's response schema, as dotted paths ("apiKey.secret"). */
function secretFieldsOf(endpoint: Endpoint): string[] {
  if (!endpoint.response) return [];
  return stringFields(endpoint.response)
    .map((field) => field.path.filter((part) => typeof part === "string"))
    .filter((path) => path.some((part) => SECRET_NAME.test(part)))
    .map((path) => path.join("."));
}

const routeOf = (endpoint: Endpoint) => `${endpoint.method} ${endpoint.path}`;
const marked = allEndpoints.filter((endpoint) => endpoint.secretResponse);

describe("secret-bearing responses are marked in their endpoint definition", () => {
  it.each(allEndpoints.map((endpoint) => [routeOf(endpoint), endpoint] as const))("%s", (_, endpoint) => {
    const fields = secretFieldsOf(endpoint);
    if (fields.length) expect(endpoint.secretResponse, `${routeOf(endpoint)} answers ${fields.join(", ")}`).toBe(true);
    // The mark means something: a marked endpoint's response does carry such a field.
    else
      expect(
        endpoint.secretResponse,
        `${routeOf(endpoint)} is marked but carries no secret-looking field`,
      ).toBeUndefined();
  });

  it("the walk sees the secrets the attack named", () => {
    expect(marked.map(routeOf).sort()).toEqual([
      "POST /v1/api_keys",
      "POST /v1/api_keys/{key}/roll",
      "POST /v1/employees",
      "POST /v1/employees/totp",
      "POST /v1/employees/totp/confirm",
      "POST /v1/employees/totp/recovery_codes",
      "POST /v1/employees/{id}/invitation",
      "POST /v1/employees/{id}/password_reset",
      "POST /v1/sandbox/platforms",
    ]);
  });
});

/**
 * A first request to a secret-bearing endpoint, as its caller makes it, and a count of what it creates
 * (so a repeat can be seen to create nothing). `again` is the repeat's own call options, where a new
 * Service-Totp-Code is needed.
 */
type ReplayCase = () => Promise<{ first: Call; again?: Call; count: () => Promise<unknown> }>;

const keyWriter = ["api_keys:read", "api_keys:write"] as const;

const replayCases: Record<string, ReplayCase> = {
  "POST /v1/api_keys": async () => {
    const { apiKey, account } = await platformWithKey({ permissions: [...keyWriter] });
    return {
      first: { apiKey, body: { name: "CI", expiresAt: inDays(30) } },
      count: () => db().apiKey.count({ where: { accountId: account.id } }),
    };
  },
  "POST /v1/api_keys/{key}/roll": async () => {
    const { apiKey, account } = await platformWithKey({ permissions: [...keyWriter] });
    const rolled = await apiKeyFor(account.id, { permissions: ["api_keys:read"] });
    return {
      first: { apiKey, params: { key: rolled.id }, body: { expiresAt: inDays(30), overlapSeconds: 60 } },
      count: () => db().apiKey.count({ where: { accountId: account.id } }),
    };
  },
  "POST /v1/sandbox/platforms": async () => {
    const { apiKey } = await platformWithKey({ permissions: ["sandbox:write"] });
    const name = `Replayed ${Date.now()}`;
    return { first: { apiKey, body: { accountName: name } }, count: () => db().account.count({ where: { name } }) };
  },
  "POST /v1/employees": async () => {
    const { apiKey, account } = await platformWithKey({ permissions: ["employees:read", "employees:write"] });
    return {
      first: { apiKey, body: { name: "New Hire", email: `hire.${account.id}@example.com`.toLowerCase() } },
      count: () => db().employee.count({ where: { accountId: account.id } }),
    };
  },
  "POST /v1/employees/{id}/invitation": async () => {
    const { apiKey, account } = await platformWithKey({ permissions: ["employees:read", "employees:write"] });
    const invited = await withScope({ platformId: account.id, accountId: account.id }, () =>
      inviteEmployee({
        name: "Lost Link",
        email: `lost.${account.id}@example.com`.toLowerCase(),
        role: "viewer",
        origin: ORIGIN,
      }),
    );
    return {
      first: { apiKey, params: { id: invited.id } },
      count: async () =>
        (
          await db().credentialLink.findUnique({
            where: { employeeId_purpose: { employeeId: invited.id, purpose: "invitation" } },
          })
        )?.tokenHash,
    };
  },
  "POST /v1/employees/{id}/password_reset": async () => {
    const admin = await signedInEmployee({ totp: true, role: "admin" });
    const { employee } = await signedInEmployee({ role: "viewer", platform: admin.account });
    return {
      first: { session: admin.session, totp: admin.authenticator!.nextCode(), params: { id: employee.id } },
      again: { session: admin.session, totp: admin.authenticator!.nextCode(), params: { id: employee.id } },
      count: async () =>
        (
          await db().credentialLink.findUnique({
            where: { employeeId_purpose: { employeeId: employee.id, purpose: "password_reset" } },
          })
        )?.tokenHash,
    };
  },
  "POST /v1/employees/totp": async () => {
    const { session, employee } = await signedInEmployee();
    // The current password goes along: enrolment asks for it (docs/security.md, Two-factor
    // authentication), and a route that reads no body ignores it.
    return {
      first: { session, body: { password: PASSWORD } },
      count: async () => (await db().employee.findUniqueOrThrow({ where: { id: employee.id } })).totpPendingSecret,
    };
  },
  "POST /v1/employees/totp/confirm": async () => {
    const { session, employee } = await signedInEmployee();
    const started = await call<{ secret: string }>(await handlerFor(startTotp()), {
      method: "POST",
      session,
      body: { password: PASSWORD },
    });
    const authenticator = new Authenticator(started.body.secret);
    return {
      first: { session, body: { code: authenticator.nextCode() } },
      count: () =>
        db().recoveryCode.findMany({
          where: { employeeId: employee.id },
          select: { codeHash: true },
          orderBy: { codeHash: "asc" },
        }),
    };
  },
  "POST /v1/employees/totp/recovery_codes": async () => {
    const { session, employee, authenticator } = await signedInEmployee({ totp: true });
    return {
      first: { session, totp: authenticator!.nextCode() },
      again: { session, totp: authenticator!.nextCode() },
      count: () =>
        db().recoveryCode.findMany({
          where: { employeeId: employee.id },
          select: { codeHash: true },
          orderBy: { codeHash: "asc" },
        }),
    };
  },
};

/** Every string of an answer long enough to be a secret (ids, secrets, codes, links). */
export function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return value.length >= 8 ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === "object") return Object.values(value).flatMap(stringsIn);
  return [];
}

/** The values under secret-looking names anywhere in an answer (a key's secret, each recovery code, a link's token). */
function secretValuesIn(value: unknown, underSecret = false): string[] {
  if (typeof value === "string") {
    if (!underSecret) return [];
    // A link's secret is its token; the rest of it (the origin, the path) is no secret.
    const token = URL.canParse(value) ? new URL(value).searchParams.get("token") : null;
    return [token ?? value];
  }
  if (Array.isArray(value)) return value.flatMap((item) => secretValuesIn(item, underSecret));
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, item]) => secretValuesIn(item, underSecret || SECRET_NAME.test(key)));
  }
  return [];
}

function startTotp(): Endpoint {
  return allEndpoints.find((endpoint) => routeOf(endpoint) === "POST /v1/employees/totp")!;
}

describe("Idempotency-Key: a response that held a secret is never replayed", () => {
  it.each(marked.map((endpoint) => [routeOf(endpoint), endpoint] as const))(
    "%s: the repeat answers 409 err_idempotency_secret and creates nothing",
    async (name, endpoint) => {
      const replayCase = replayCases[name];
      expect(replayCase, `${name} is marked secretResponse but has no replay case here`).toBeDefined();
      const { first, again, count } = await replayCase!();
      const handler = await handlerFor(endpoint);
      const send = (options: Call) =>
        call<{ error_code?: string; message?: string }>(handler, {
          method: "POST",
          path: name.slice(5),
          ...options,
          headers: { "idempotency-key": `once-${name}` },
        });
      const answered = await send(first);
      expect(answered.status, JSON.stringify(answered.body)).toBe(endpoint.status ?? 200);
      const before = await count();
      const repeat = await send({ ...first, ...again });
      expect(repeat.status, JSON.stringify(repeat.body)).toBe(409);
      expect(repeat.body).toMatchObject({
        error_code: "err_idempotency_secret",
        message: "That response held a secret shown once; look the object up instead",
      });
      expect(repeat.headers.get("idempotent-replayed")).toBeNull();
      // Nothing of the first answer comes back, and nothing is created twice.
      for (const value of stringsIn(answered.body)) expect(JSON.stringify(repeat.body)).not.toContain(value);
      expect(await count()).toEqual(before);
      const kept = await db().idempotencyKey.findMany({ where: { key: `once-${name}` } });
      expect(kept).toHaveLength(1);
      expect(kept[0]).toMatchObject({ heldSecret: true, body: null, status: endpoint.status ?? 200 });
    },
  );

  it.each(marked.map((endpoint) => [routeOf(endpoint), endpoint] as const))(
    "%s: no audit record anywhere holds the secret it showed",
    async (name, endpoint) => {
      const { first } = await replayCases[name]!();
      const answered = await call(await handlerFor(endpoint), { method: "POST", path: name.slice(5), ...first });
      expect(answered.status, JSON.stringify(answered.body)).toBe(endpoint.status ?? 200);
      const secrets = secretValuesIn(answered.body);
      expect(secrets.length, `${name} showed no secret`).toBeGreaterThan(0);
      const records = await db().auditEvent.findMany({ select: { action: true, details: true } });
      expect(records.some((record) => record.action === (endpoint.action ?? name))).toBe(true);
      for (const record of records) {
        const text = JSON.stringify(record.details);
        for (const secret of secrets) expect(text, `${record.action}'s details`).not.toContain(secret);
      }
    },
  );
});
