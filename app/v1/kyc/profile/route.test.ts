import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { updateApplicantProfile } from "@/lib/kyc/profile";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { withScope } from "@/lib/tenancy";
import { GET } from "./route";

const get = (apiKey?: string, headers?: Record<string, string>) =>
  call(GET, { apiKey, path: "/v1/kyc/profile", headers });

const empty = {
  firstName: null,
  lastName: null,
  dateOfBirth: null,
  nationality: null,
  email: null,
  phone: null,
  address: null,
  updatedAt: null,
};

describe("GET /v1/kyc/profile", () => {
  it("200 with every field null before the first update", async () => {
    const { apiKey } = await platformWithKey();
    const response = await get(apiKey);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(empty);
  });

  it("200: the whole profile, as POST /v1/kyc/update_profile answers it", async () => {
    const { apiKey, scope } = await platformWithKey();
    // Sent and answered alike, but for the nationality's case and the address's line2.
    const same = {
      firstName: "Ada",
      lastName: "Lovelace",
      dateOfBirth: "1985-12-10",
      email: "ada@example.com",
      phone: "+442071234567",
    };
    const address = { line1: "1 Main St", city: "London", postalCode: "SW1A 1AA", country: "GB" };
    const updated = await withScope(scope, () => updateApplicantProfile({ ...same, nationality: "gb", address }));
    const response = await get(apiKey);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ...same,
      nationality: "GB",
      address: { ...address, line2: null },
      updatedAt: (updated.updatedAt as Date).toISOString(),
    });
  });

  it("200 by an employee session", async () => {
    const { session, account } = await signedInEmployee();
    await withScope({ platformId: account.id, accountId: account.id }, () =>
      updateApplicantProfile({ lastName: "Hopper" }),
    );
    const response = await call(GET, { session, path: "/v1/kyc/profile" });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ firstName: null, lastName: "Hopper" });
  });

  it("200 acting for a sub-account with Service-Account-Id: its own profile", async () => {
    const { apiKey, account, scope } = await platformWithKey();
    const sub = await db().account.create({
      data: { id: newId("acct"), platformId: account.id, parentId: account.id, name: "Sub" },
    });
    await withScope(scope, () => updateApplicantProfile({ firstName: "Parent" }));
    await withScope({ platformId: account.id, accountId: sub.id }, () =>
      updateApplicantProfile({ firstName: "Child" }),
    );
    expect((await get(apiKey)).body.firstName).toBe("Parent");
    expect((await get(apiKey, { "service-account-id": sub.id })).body.firstName).toBe("Child");
  });

  it("never shows another platform's profile", async () => {
    const mine = await platformWithKey();
    const theirs = await platformWithKey();
    await withScope(theirs.scope, () => updateApplicantProfile({ firstName: "Theirs", email: "theirs@example.com" }));
    expect((await get(mine.apiKey)).body).toEqual(empty);
  });
});
