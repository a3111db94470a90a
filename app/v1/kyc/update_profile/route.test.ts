import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { POST } from "./route";

const update = (options: Parameters<typeof call>[1]) =>
  call(POST, { method: "POST", path: "/v1/kyc/update_profile", ...options });

const utcDate = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

const address = { line1: "Unter den Linden 1", line2: "3rd floor", city: "Berlin", postalCode: "10117", country: "de" };

describe("POST /v1/kyc/update_profile", () => {
  it("two first updates at once both apply: the second updates the profile the first created (on PostgreSQL they run side by side)", async () => {
    // Several accounts at once, so the two first writes of some account do overlap.
    const platforms = await Promise.all(Array.from({ length: 6 }, () => platformWithKey()));
    const answers = await Promise.all(
      platforms.flatMap(({ apiKey }) => [
        update({ apiKey, body: { firstName: "Ada" } }),
        update({ apiKey, body: { lastName: "Lovelace" } }),
      ]),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    for (const { account } of platforms) {
      expect(await db().applicantProfile.findUniqueOrThrow({ where: { accountId: account.id } })).toMatchObject({
        firstName: "Ada",
        lastName: "Lovelace",
      });
    }
  });

  it("200: creates the profile on first update and answers all of it, unset fields null", async () => {
    const { apiKey, account, key } = await platformWithKey();
    const response = await update({ apiKey, body: { firstName: " Ada ", nationality: "gb", phone: "+442071234567" } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      firstName: "Ada",
      lastName: null,
      dateOfBirth: null,
      nationality: "GB",
      email: null,
      phone: "+442071234567",
      address: null,
      updatedAt: expect.any(String),
    });
    expect(await db().applicantProfile.findUniqueOrThrow({ where: { accountId: account.id } })).toMatchObject({
      firstName: "Ada",
    });
    const audit = await db().auditEvent.findFirstOrThrow({ where: { action: "kyc.update_profile", actorId: key.id } });
    expect(audit).toMatchObject({ targetId: account.id, status: 200 });
    // Field names only: personal data stays out of the audit trail.
    expect(audit.details).toEqual({ fields: ["firstName", "nationality", "phone"] });
  });

  it("200: a partial update keeps earlier fields; an address is replaced whole", async () => {
    const { apiKey } = await platformWithKey();
    await update({
      apiKey,
      body: { firstName: "Ada", lastName: "Lovelace", dateOfBirth: "1985-12-10", email: "ada@example.com", address },
    });
    const response = await update({
      apiKey,
      body: {
        lastName: "King",
        address: { line1: "1 Main St", city: "London", postalCode: "SW1A 1AA", country: "GB" },
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      firstName: "Ada",
      lastName: "King",
      dateOfBirth: "1985-12-10",
      email: "ada@example.com",
      address: { line1: "1 Main St", line2: null, city: "London", postalCode: "SW1A 1AA", country: "GB" },
    });
    const withLine2 = await update({ apiKey, body: { address } });
    expect(withLine2.body.address).toEqual({ ...address, country: "DE" });
    expect(withLine2.body.lastName).toBe("King");
  });

  it("200 by an employee session, no TOTP code needed", async () => {
    const { session } = await signedInEmployee();
    const response = await update({ session, body: { dateOfBirth: "2000-02-29" } });
    expect(response.status).toBe(200);
    expect(response.body.dateOfBirth).toBe("2000-02-29");
  });

  it("200 for a sub-account with Service-Account-Id: its profile, not the caller's", async () => {
    const { apiKey, account } = await platformWithKey();
    const sub = await db().account.create({
      data: { id: newId("acct"), platformId: account.id, parentId: account.id, name: "Sub" },
    });
    await update({ apiKey, body: { firstName: "Parent" } });
    const response = await update({ apiKey, body: { lastName: "Child" }, headers: { "service-account-id": sub.id } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ firstName: null, lastName: "Child" });
    expect(await db().applicantProfile.findUniqueOrThrow({ where: { accountId: account.id } })).toMatchObject({
      firstName: "Parent",
      lastName: null,
    });
  });

  it("each platform has its own profile; another platform's account in Service-Account-Id is 404", async () => {
    const mine = await platformWithKey();
    const theirs = await platformWithKey();
    await update({ apiKey: theirs.apiKey, body: { firstName: "Theirs" } });
    expect((await update({ apiKey: mine.apiKey, body: { lastName: "Mine" } })).body.firstName).toBeNull();
    const crossing = await update({
      apiKey: mine.apiKey,
      body: { firstName: "Intruder" },
      headers: { "service-account-id": theirs.account.id },
    });
    expect(crossing.status).toBe(404);
    expect(await db().applicantProfile.findUniqueOrThrow({ where: { accountId: theirs.account.id } })).toMatchObject({
      firstName: "Theirs",
    });
  });

  it("422 naming the field for invalid values, nothing stored", async () => {
    const { apiKey, account } = await platformWithKey();
    const cases: [object, string][] = [
      [{ dateOfBirth: "2023-02-30" }, "dateOfBirth"],
      [{ dateOfBirth: "2023-02-29" }, "dateOfBirth"],
      [{ dateOfBirth: "1990-1-5" }, "dateOfBirth"],
      [{ dateOfBirth: "1990-01-05T00:00:00Z" }, "dateOfBirth"],
      [{ dateOfBirth: utcDate(1) }, "dateOfBirth"],
      [{ dateOfBirth: utcDate(0) }, "dateOfBirth"],
      [{ dateOfBirth: "2999-01-01" }, "dateOfBirth"],
      [{ dateOfBirth: "1899-12-31" }, "dateOfBirth"],
      [{ nationality: "XX" }, "nationality"],
      [{ nationality: "DEU" }, "nationality"],
      [{ nationality: "D1" }, "nationality"],
      [{ phone: "0301234567" }, "phone"],
      [{ phone: "+0301234567" }, "phone"],
      [{ phone: "+49 30 1234567" }, "phone"],
      [{ phone: "+1234567890123456" }, "phone"],
      [{ email: "not-an-email" }, "email"],
      [{ firstName: "" }, "firstName"],
      [{ lastName: "x".repeat(101) }, "lastName"],
      [{ firstName: null }, "firstName"],
      [{ address: { ...address, country: "ZZ" } }, "address.country"],
      [{ address: { line1: "1 Main St", city: "London", country: "GB" } }, "address.postalCode"],
      [{ address: { ...address, county: "Berlin" } }, "address"],
    ];
    for (const [body, field] of cases) {
      const response = await update({ apiKey, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.error_code).toBe("err_validation");
      expect(Object.keys(response.body.details ?? {}), JSON.stringify(body)).toEqual([field]);
    }
    expect(await db().applicantProfile.count({ where: { accountId: account.id } })).toBe(0);
  });

  it("422 for an empty body and for unknown fields", async () => {
    const { apiKey } = await platformWithKey();
    const empty = await update({ apiKey, body: {} });
    expect(empty.status).toBe(422);
    expect(empty.body.message).toMatch(/provide at least one field/);
    const unknown = await update({ apiKey, body: { firstName: "Ada", lastname: "Lovelace" } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toMatch(/lastname/);
  });
});
