import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, expectCreated } from "@/lib/testing/http";
import { tenantDb, withScope } from "@/lib/tenancy";
import { POST } from "./route";

const create = (options: Parameters<typeof call>[1]) => call(POST, { method: "POST", ...options });

describe("POST /v1/sandbox/recipients", () => {
  it("201: an active recipient of the caller's account, name trimmed", async () => {
    const { apiKey, scope } = await platformWithKey();
    const response = await create({ apiKey, body: { name: "  Grace Hopper " } });
    expectCreated(response, /^rcp_[a-z0-9]+$/, { name: "Grace Hopper", isActive: true, deletedAt: null });
    expect((await db().recipient.findUniqueOrThrow({ where: { id: response.body.id } })).accountId).toBe(
      scope.accountId,
    );
  });

  it("201 from an employee session, no TOTP code needed", async () => {
    const { session } = await signedInEmployee({ totp: true });
    expect((await create({ session, body: { name: "Session" } })).status).toBe(201);
  });

  it("201 for a sub-account with Service-Account-Id", async () => {
    const { apiKey, scope } = await platformWithKey();
    const sub = await withScope(scope, async () =>
      tenantDb().account.create({
        data: { id: newId("acct"), platformId: scope.platformId, parentId: scope.accountId, name: "Sub" },
      }),
    );
    const response = await create({ apiKey, headers: { "service-account-id": sub.id }, body: { name: "Sub's" } });
    expect(response.status).toBe(201);
    expect((await db().recipient.findUniqueOrThrow({ where: { id: response.body.id } })).accountId).toBe(sub.id);
  });

  it("422 for a missing, blank, too long or non-string name", async () => {
    const { apiKey } = await platformWithKey();
    for (const body of [{}, { name: "   " }, { name: "n".repeat(201) }, { name: 42 }]) {
      const response = await create({ apiKey, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(response.body.details ?? {})).toEqual(["name"]);
    }
  });
});
