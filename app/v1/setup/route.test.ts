import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { call, sessionFrom } from "@/lib/testing/http";
import { GET, POST } from "./route";

const valid = { accountName: "Acme Payments", name: "Ada Lovelace", email: "Ada@Example.com", password: "a long enough password" };

// Setup works once per database, so the cases run in order: refusals first, then the one success.
describe("POST /v1/setup", () => {
  it("422 names each invalid field", async () => {
    const response = await call(POST, { method: "POST", body: { ...valid, email: "not-an-email", password: "short" } });
    expect(response.status).toBe(422);
    expect(response.body.error_code).toBe("err_validation");
    expect(response.body.http_code).toBe(422);
    expect(Object.keys(response.body.details).sort()).toEqual(["email", "password"]);
  });

  it("400 for a body that is not JSON, not an object, or not sent as JSON", async () => {
    for (const rawBody of ["{nope", "[1,2]", "null", '"text"']) {
      const response = await call(POST, { method: "POST", rawBody });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error_code: "err_bad_request", http_code: 400 });
    }
    const form = await call(POST, { method: "POST", rawBody: "a=b", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(form.status).toBe(400);
  });

  // Regression: the limit counted characters, so 400k "€" (1.2 MB of UTF-8) passed a 1 MiB check.
  it("400 for a body over 1 MiB in bytes, even without a Content-Length", async () => {
    const response = await call(POST, { method: "POST", rawBody: JSON.stringify({ ...valid, name: "€".repeat(400_000) }) });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/1 MiB/);
  });

  it("403 for a cross-site browser request", async () => {
    const response = await call(POST, { method: "POST", body: valid, headers: { origin: "https://evil.example" } });
    expect(response.status).toBe(403);
    expect(response.body.error_code).toBe("err_forbidden");
    expect(await db().employee.count()).toBe(0);
  });

  it("201 creates the platform and its first employee and signs them in", async () => {
    const response = await call(POST, { method: "POST", body: valid });
    expect(response.status).toBe(201);
    expect(response.body.employee).toMatchObject({ name: "Ada Lovelace", email: "ada@example.com", status: "active", twoFactorEnabled: false });
    expect(response.body.account).toMatchObject({ name: "Acme Payments", parentId: null, featureFlags: {} });
    expect(response.body.employee).not.toHaveProperty("passwordHash");
    const cookie = response.headers.get("set-cookie")!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(sessionFrom(response.headers)).toHaveLength(43);
    const account = await db().account.findUniqueOrThrow({ where: { id: response.body.account.id } });
    expect(account.platformId).toBe(account.id);
  });

  it("409 once anyone exists", async () => {
    const response = await call(POST, { method: "POST", body: { ...valid, email: "someone@example.com" } });
    expect(response.status).toBe(409);
    expect(response.body.error_code).toBe("err_conflict");
    expect(await db().employee.count()).toBe(1);
  });

  it("405 for other methods, with Allow", async () => {
    const response = await call(GET);
    expect(response.status).toBe(405);
    expect(response.body.error_code).toBe("err_method_not_allowed");
    expect(response.headers.get("allow")).toContain("POST");
  });
});
