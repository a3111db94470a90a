import { describe, expect, it } from "vitest";
import { GET as whoAmI } from "@/app/v1/sessions/current/route";
import { POST as signIn } from "@/app/v1/sessions/route";
import { createSession } from "@/lib/auth/sessions";
import { db } from "@/lib/db";
import { apiKeyFor, PASSWORD, signedInEmployee } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { POST } from "./route";

const NEW_PASSWORD = "an entirely new passphrase";
const change = (session: string, body: unknown) => call(POST, { method: "POST", session, body });
const otherSession = async (employeeId: string) =>
  /=([^;]*)/.exec((await createSession({ employeeId, ip: null })).cookie)![1]!;

describe("POST /v1/employees/me/password", () => {
  it("200: the new password signs in, the old one does not; every other session ends, this one stays", async () => {
    const staff = await signedInEmployee({ role: "viewer" });
    const other = await otherSession(staff.employee.id);
    const response = await change(staff.session, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ passwordChanged: true, endedSessions: 1 });
    expect((await call(whoAmI, { session: staff.session })).status).toBe(200);
    expect((await call(whoAmI, { session: other })).status).toBe(401);
    expect(
      (await call(signIn, { method: "POST", body: { email: staff.email, password: PASSWORD }, ip: "198.51.100.90" }))
        .status,
    ).toBe(401);
    expect(
      (
        await call(signIn, {
          method: "POST",
          body: { email: staff.email, password: NEW_PASSWORD },
          ip: "198.51.100.91",
        })
      ).status,
    ).toBe(200);
    const audit = await db().auditEvent.findFirstOrThrow({
      where: { action: "employee.change_password", actorId: staff.employee.id },
    });
    expect(JSON.stringify(audit)).not.toContain(NEW_PASSWORD);
    expect(JSON.stringify(audit)).not.toContain(PASSWORD);
  });

  it("422 under currentPassword when it is wrong, nothing changed; 429 after repeated wrong guesses", async () => {
    const staff = await signedInEmployee();
    const before = (await db().employee.findUniqueOrThrow({ where: { id: staff.employee.id } })).passwordHash;
    const wrong = await change(staff.session, { currentPassword: "a wrong guess", newPassword: NEW_PASSWORD });
    expect(wrong.status).toBe(422);
    expect(wrong.body.details).toEqual({ currentPassword: "is not your current password" });
    for (let attempt = 0; attempt < 4; attempt++)
      await change(staff.session, { currentPassword: `guess ${attempt}`, newPassword: NEW_PASSWORD });
    const blocked = await change(staff.session, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(blocked.status).toBe(429);
    expect((await db().employee.findUniqueOrThrow({ where: { id: staff.employee.id } })).passwordHash).toBe(before);
  });

  it("twenty parallel wrong guesses: at most five are checked (422), the rest answer 429 (regression: all were checked)", async () => {
    const staff = await signedInEmployee();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        change(staff.session, { currentPassword: `parallel guess ${n}`, newPassword: NEW_PASSWORD }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 422).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(15);
    expect(statuses.every((status) => status === 422 || status === 429)).toBe(true);
  });

  it("422 for a common new password, naming why; the password stays", async () => {
    const staff = await signedInEmployee();
    const common = await change(staff.session, { currentPassword: PASSWORD, newPassword: "Password1234" });
    expect(common.status).toBe(422);
    expect(common.body.details).toEqual({ newPassword: "is one of the 100,000 most common passwords; choose another" });
    const signedIn = await call(signIn, {
      method: "POST",
      ip: "203.0.113.41",
      body: { email: staff.email, password: PASSWORD },
    });
    expect(signedIn.status).toBe(200);
  });

  it("422 naming a too-short new password; 403 for an API key", async () => {
    const staff = await signedInEmployee();
    const short = await change(staff.session, { currentPassword: PASSWORD, newPassword: "short" });
    expect(short.status).toBe(422);
    expect(Object.keys(short.body.details ?? {})).toEqual(["newPassword"]);
    const key = await apiKeyFor(staff.account.id);
    expect(
      (
        await call(POST, {
          method: "POST",
          apiKey: key.secret,
          body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
        })
      ).status,
    ).toBe(403);
  });
});
