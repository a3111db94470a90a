import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { apiKeyFor, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { DELETE, GET } from "./route";

describe("GET /v1/sessions/current", () => {
  it("200: the signed-in employee and account", async () => {
    const { session, employee, account } = await signedInEmployee();
    const response = await call(GET, { session });
    expect(response.status).toBe(200);
    expect(response.body.employee.id).toBe(employee.id);
    expect(response.body.account.id).toBe(account.id);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("401 without a cookie, with an unknown one, or after idle or absolute expiry", async () => {
    expect((await call(GET)).status).toBe(401);
    const unknown = await call(GET, { session: "x".repeat(43) });
    expectError(unknown, 401, "err_unauthenticated");

    const idle = await signedInEmployee();
    await db().session.updateMany({
      where: { employeeId: idle.employee.id },
      data: { lastSeenAt: new Date(Date.now() - 31 * 60_000) },
    });
    expect((await call(GET, { session: idle.session })).status).toBe(401);

    const old = await signedInEmployee();
    await db().session.updateMany({
      where: { employeeId: old.employee.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await call(GET, { session: old.session })).status).toBe(401);
  });

  it("403 for an API key: this route is about a person", async () => {
    const { account } = await signedInEmployee();
    const key = await apiKeyFor(account.id);
    const response = await call(GET, { apiKey: key.secret });
    expectError(response, 403, "err_forbidden");
  });
});

describe("DELETE /v1/sessions/current", () => {
  it("200 signs out: the cookie is cleared and the session no longer works", async () => {
    const { session } = await signedInEmployee();
    const response = await call(DELETE, { method: "DELETE", session });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ signedOut: true });
    expect(response.headers.get("set-cookie")).toMatch(/Max-Age=0/);
    expect((await call(GET, { session })).status).toBe(401);
  });

  it("403 without same-origin proof (CSRF), and the session survives", async () => {
    const { session } = await signedInEmployee();
    const crossSite = await call(DELETE, { method: "DELETE", session, headers: { origin: "https://evil.example" } });
    expectError(crossSite, 403, "err_forbidden");
    const fetchSite = await call(DELETE, { method: "DELETE", session, headers: { "sec-fetch-site": "cross-site" } });
    expect(fetchSite.status).toBe(403);
    const noOrigin = await call(DELETE, { method: "DELETE", session, headers: { origin: "" } });
    expect(noOrigin.status).toBe(403);
    expect((await call(GET, { session })).status).toBe(200);
  });
});
