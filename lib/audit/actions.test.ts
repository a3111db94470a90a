import { describe, expect, it } from "vitest";
import { auditActionOf, auditActions } from "@/lib/audit/actions";
import { allEndpoints } from "@/lib/endpoints";

describe("auditActions", () => {
  const actions = auditActions();

  it("lists each endpoint's action once, with the service's own", () => {
    expect(new Set(actions).size).toBe(actions.length);
    for (const definition of allEndpoints) expect(actions).toContain(auditActionOf(definition));
    expect(actions).toContain("delegated_user.create");
    expect(actions).toContain("webhook_endpoint.auto_disable");
  });

  it("puts the named actions first, each part sorted", () => {
    const firstUnnamed = actions.findIndex((action) => action.includes(" "));
    const named = actions.slice(0, firstUnnamed);
    const unnamed = actions.slice(firstUnnamed);
    expect(named.every((action) => !action.includes(" "))).toBe(true);
    expect(unnamed.every((action) => / \/v1\//.test(action))).toBe(true);
    expect(named).toEqual([...named].sort((a, b) => a.localeCompare(b)));
    expect(unnamed).toEqual([...unnamed].sort((a, b) => a.localeCompare(b)));
  });

  it("names an endpoint without an action by its route, as the audit record does", () => {
    expect(auditActionOf({ method: "GET", path: "/v1/api_keys" })).toBe("GET /v1/api_keys");
    expect(auditActionOf({ method: "POST", path: "/v1/api_keys", action: "api_key.issue" })).toBe("api_key.issue");
  });
});
