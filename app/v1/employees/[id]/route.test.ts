import { DEFAULT_KEY_PERMISSIONS } from "@/lib/auth/permissions";
import { describe, expect, it } from "vitest";
import { POST as invite } from "@/app/v1/employees/route";
import { apiKeyFor, platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { GET, PUT } from "./route";

const get = (id: string, options: Parameters<typeof call>[1] = {}) => call(GET, { params: { id }, ...options });

describe("GET /v1/employees/{id}", () => {
  it("200: the employee, without any secret", async () => {
    const { session, employee } = await signedInEmployee({ totp: true });
    const response = await get(employee.id, { session });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: employee.id,
      name: employee.name,
      email: employee.email,
      status: "active",
      twoFactorEnabled: true,
      lastLoginAt: null,
      createdAt: employee.createdAt.toISOString(),
      role: "owner",
      deactivatedAt: null,
    });
  });

  it("200 by API key for an invited employee, without the invitation link", async () => {
    const { apiKey } = await platformWithKey({ permissions: [...DEFAULT_KEY_PERMISSIONS, "employees:write"] });
    const { body: invited } = await call(invite, { method: "POST", apiKey, body: { name: "New", email: `new.${Date.now()}@example.com` } });
    const response = await get(invited.id, { apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: invited.id, status: "invited", twoFactorEnabled: false });
    expect(response.body).not.toHaveProperty("invitationUrl");
  });

  it("404 for another platform's employee, an unknown or a malformed id", async () => {
    const mine = await signedInEmployee();
    const theirs = await signedInEmployee();
    const key = await apiKeyFor(mine.account.id);
    for (const id of [theirs.employee.id, "emp_doesnotexist", "acct_x", "emp_"]) {
      for (const credential of [{ session: mine.session }, { apiKey: key.secret }]) {
        const response = await get(id, credential);
        expect(response.status).toBe(404);
        expect(response.body.error_code).toBe("err_not_found");
      }
    }
  });

  it("401 without a credential", async () => {
    expect((await get("emp_abc")).status).toBe(401);
  });

  it("405 for PUT", async () => {
    expect((await call(PUT, { method: "PUT", params: { id: "emp_abc" } })).status).toBe(405);
  });
});
