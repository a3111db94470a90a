import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { resetEnv } from "@/lib/env";
import { setupTokenFile } from "@/lib/employees/setup";
import { startUp } from "@/lib/startup";
import { call, expectError } from "@/lib/testing/http";
import { POST } from "./route";

const SETUP_TOKEN = "operator-chosen-setup-token-0123456789";
const valid = {
  accountName: "Acme Payments",
  name: "Ada Lovelace",
  email: "ada@example.com",
  password: "a long enough password",
};

// With SETUP_TOKEN set, setup takes exactly it; nothing is generated or printed.
describe("POST /v1/setup with SETUP_TOKEN", () => {
  beforeAll(() => {
    process.env.SETUP_TOKEN = SETUP_TOKEN;
    resetEnv();
  });
  afterAll(() => {
    delete process.env.SETUP_TOKEN;
    resetEnv();
  });

  it("start-up says where to set up without echoing the token, and generates none", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    await startUp();
    const text = log.mock.calls.flat().join("\n");
    expect(text).toContain(
      "First-run setup: open http://localhost:3000/setup and enter the SETUP_TOKEN you configured.",
    );
    expect(text).not.toContain(SETUP_TOKEN);
    expect(existsSync(setupTokenFile())).toBe(false);
  });

  it("403 for a near miss, 201 for SETUP_TOKEN (trimmed like any field), then 409", async () => {
    const miss = await call(POST, { method: "POST", body: { ...valid, setupToken: SETUP_TOKEN.slice(1) } });
    expectError(miss, 403, "err_forbidden");
    const created = await call(POST, { method: "POST", body: { ...valid, setupToken: ` ${SETUP_TOKEN} ` } });
    expect(created.status).toBe(201);
    const again = await call(POST, {
      method: "POST",
      body: { ...valid, email: "other@example.com", setupToken: SETUP_TOKEN },
    });
    expect(again.status).toBe(409);
    expect(await db().employee.count()).toBe(1);
  });
});
