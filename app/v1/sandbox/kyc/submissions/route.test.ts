import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { POST } from "./route";

const create = (options: Parameters<typeof call>[1]) =>
  call(POST, { method: "POST", path: "/v1/sandbox/kyc/submissions", ...options });

const owner = (overrides: object = {}) => ({
  type: "individual",
  country: "DE",
  roles: ["ubo"],
  shareSize: 25,
  ...overrides,
});

describe("POST /v1/sandbox/kyc/submissions", () => {
  it("201: a submitted submission with its beneficiaries, stored for the caller's account and audited", async () => {
    const { apiKey, account, key } = await platformWithKey();
    const response = await create({
      apiKey,
      body: {
        type: "business",
        beneficiaries: [
          owner({ country: "fr", roles: ["director", "representative"], shareSize: 0, name: "Dir" }),
          owner({ type: "business", country: "GB", roles: ["shareholder", "ubo"], shareSize: 74.99 }),
        ],
      },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^sub_[a-z0-9]{20}$/),
      type: "business",
      status: "submitted",
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      beneficiaries: [
        {
          id: expect.stringMatching(/^ben_/),
          name: null,
          type: "business",
          country: "GB",
          roles: ["shareholder", "ubo"],
          shareSize: 74.99,
        },
        {
          id: expect.stringMatching(/^ben_/),
          name: "Dir",
          type: "individual",
          country: "FR",
          roles: ["director", "representative"],
          shareSize: 0,
        },
      ],
    });
    const rows = await db().beneficiary.findMany({ where: { submissionId: response.body.id } });
    expect(rows.map((row) => row.accountId)).toEqual([account.id, account.id]);
    expect((await db().kycSubmission.findUniqueOrThrow({ where: { id: response.body.id } })).accountId).toBe(
      account.id,
    );
    const audit = await db().auditEvent.findFirstOrThrow({ where: { action: "sandbox.kyc_submission.create" } });
    expect(audit).toMatchObject({ actorId: key.id, targetId: response.body.id, status: 201 });
  });

  it("201 with no beneficiaries, and with 50 whose shares add up to exactly 100", async () => {
    const { apiKey } = await platformWithKey();
    /** The beneficiaries of a submission created from `body`, which must answer 201. */
    const beneficiariesOf = async (body: object) => {
      const response = await create({ apiKey, body });
      expect(response.status).toBe(201);
      return response.body.beneficiaries;
    };
    expect(await beneficiariesOf({ type: "individual" })).toEqual([]);
    expect(
      await beneficiariesOf({
        type: "business",
        beneficiaries: Array.from({ length: 50 }, () => owner({ shareSize: 2 })),
      }),
    ).toHaveLength(50);
    await beneficiariesOf({
      type: "business",
      beneficiaries: [33.33, 33.33, 33.34].map((shareSize) => owner({ shareSize })),
    });
  });

  it("201 by an employee session, and for a sub-account with Service-Account-Id", async () => {
    const { session, account } = await signedInEmployee();
    expect((await create({ session, body: { type: "individual" } })).status).toBe(201);
    const sub = await db().account.create({
      data: { id: newId("acct"), platformId: account.id, parentId: account.id, name: "Sub" },
    });
    const response = await create({ session, body: { type: "individual" }, headers: { "service-account-id": sub.id } });
    expect(response.status).toBe(201);
    expect((await db().kycSubmission.findUniqueOrThrow({ where: { id: response.body.id } })).accountId).toBe(sub.id);
  });

  it("422 naming the field path of each invalid beneficiary value", async () => {
    const { apiKey, account } = await platformWithKey();
    const cases: [object, string][] = [
      [{}, "type"],
      [{ type: "trust" }, "type"],
      [{ type: "business", beneficiaries: [owner({ country: "XX" })] }, "beneficiaries.0.country"],
      [{ type: "business", beneficiaries: [owner(), owner({ country: "DEU" })] }, "beneficiaries.1.country"],
      [{ type: "business", beneficiaries: [owner({ roles: [] })] }, "beneficiaries.0.roles"],
      [{ type: "business", beneficiaries: [owner({ roles: ["ubo", "ubo"] })] }, "beneficiaries.0.roles"],
      [{ type: "business", beneficiaries: [owner({ roles: ["ceo"] })] }, "beneficiaries.0.roles.0"],
      [{ type: "business", beneficiaries: [owner({ shareSize: 100.5 })] }, "beneficiaries.0.shareSize"],
      [{ type: "business", beneficiaries: [owner({ shareSize: -1 })] }, "beneficiaries.0.shareSize"],
      [{ type: "business", beneficiaries: [owner({ shareSize: "50" })] }, "beneficiaries.0.shareSize"],
      [{ type: "business", beneficiaries: [owner({ type: "trust" })] }, "beneficiaries.0.type"],
      [{ type: "business", beneficiaries: [owner({ shareSize: 60 }), owner({ shareSize: 50 })] }, "beneficiaries"],
      [{ type: "business", beneficiaries: Array.from({ length: 51 }, () => owner({ shareSize: 1 })) }, "beneficiaries"],
      [{ type: "business", beneficiaries: "none" }, "beneficiaries"],
    ];
    for (const [body, field] of cases) {
      const response = await create({ apiKey, body });
      expect(response.status, JSON.stringify(body).slice(0, 200)).toBe(422);
      expect(Object.keys(response.body.details ?? {}), JSON.stringify(body).slice(0, 200)).toEqual([field]);
    }
    expect(await db().kycSubmission.count({ where: { accountId: account.id } })).toBe(0);
  });
});
