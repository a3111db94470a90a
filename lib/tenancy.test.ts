// The tenancy confinement of writes: tenantDb() checks the scope's values a write names, and refuses
// (a thrown internal error, never a silent correction) a row without them, a row naming another
// tenant, and a nested write it could not check.
import { describe, expect, it } from "vitest";
import { createPlatform } from "@/lib/accounts/platforms";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { scopeAccountId, scopePlatformId, tenantDb, withScope } from "@/lib/tenancy";

async function twoPlatforms() {
  const own = await createPlatform({ name: "Own" });
  const other = await createPlatform({ name: "Other" });
  return { own, other, scope: { platformId: own.id, accountId: own.id } };
}

describe("tenantDb() writes", () => {
  it("writes a row that names the scope's account, and the scope's ids are there to name", async () => {
    const { own, scope } = await twoPlatforms();
    const externalId = `du-${newId("du")}`;
    await withScope(scope, async () => {
      expect(scopeAccountId()).toBe(own.id);
      expect(scopePlatformId()).toBe(own.id);
      await tenantDb().delegatedUser.create({ data: { id: newId("du"), accountId: scopeAccountId(), externalId } });
    });
    expect((await db().delegatedUser.findFirstOrThrow({ where: { externalId } })).accountId).toBe(own.id);
  });

  it("refuses a create naming another account, or none, and writes nothing", async () => {
    const { other, scope } = await twoPlatforms();
    const externalId = `du-${newId("du")}`;
    await withScope(scope, async () => {
      await expect(
        tenantDb().delegatedUser.create({ data: { id: newId("du"), accountId: other.id, externalId } }),
      ).rejects.toThrow(/another tenant's accountId/);
      await expect(
        tenantDb().delegatedUser.createMany({
          data: [
            { id: newId("du"), accountId: scopeAccountId(), externalId },
            { id: newId("du"), accountId: other.id, externalId: `${externalId}-2` },
          ],
        }),
      ).rejects.toThrow(/another tenant's accountId/);
      await expect(
        tenantDb().account.create({
          data: { id: newId("acct"), platformId: other.id, parentId: other.id, name: "Stray" },
        }),
      ).rejects.toThrow(/another tenant's platformId/);
    });
    // A create with no accountId at all does not type-check; from untyped code it is refused the same way.
    const untyped: Record<string, unknown> = { id: newId("du"), externalId };
    await withScope(scope, async () => {
      await expect(
        Reflect.apply(tenantDb().delegatedUser.create, tenantDb().delegatedUser, [{ data: untyped }]),
      ).rejects.toThrow(/without accountId/);
    });
    expect(await db().delegatedUser.count({ where: { externalId: { startsWith: externalId } } })).toBe(0);
    expect(await db().account.count({ where: { name: "Stray" } })).toBe(0);
  });

  it("refuses an update or upsert that moves a row to another account", async () => {
    const { own, other, scope } = await twoPlatforms();
    const externalId = `du-${newId("du")}`;
    const id = newId("du");
    await withScope(scope, async () => {
      await tenantDb().delegatedUser.create({ data: { id, accountId: scopeAccountId(), externalId } });
      await expect(tenantDb().delegatedUser.update({ where: { id }, data: { accountId: other.id } })).rejects.toThrow(
        /another tenant's accountId/,
      );
      await expect(tenantDb().delegatedUser.updateMany({ data: { accountId: other.id } })).rejects.toThrow(
        /another tenant's accountId/,
      );
      await expect(
        tenantDb().applicantProfile.upsert({
          where: { accountId: scopeAccountId() },
          create: { accountId: other.id },
          update: {},
        }),
      ).rejects.toThrow(/another tenant's accountId/);
    });
    expect((await db().delegatedUser.findUniqueOrThrow({ where: { id } })).accountId).toBe(own.id);
    expect(await db().applicantProfile.count({ where: { accountId: { in: [own.id, other.id] } } })).toBe(0);
  });

  it("refuses a nested write, which would create rows it cannot check", async () => {
    const { other, scope } = await twoPlatforms();
    const submissionId = newId("sub");
    await withScope(scope, async () => {
      const nested = tenantDb().kycSubmission.create({
        data: {
          id: submissionId,
          accountId: scopeAccountId(),
          type: "individual",
          status: "submitted",
          // Another tenant's owner, slipped in through the relation.
          beneficiaries: {
            create: [
              {
                id: newId("ben"),
                accountId: other.id,
                type: "individual",
                country: "DE",
                roles: "[]",
                shareSize: "100",
              },
            ],
          },
        },
      });
      await expect(nested).rejects.toThrow(/nested write through KycSubmission.beneficiaries/);
      await expect(
        tenantDb().account.update({
          where: { id: scopeAccountId() },
          data: { children: { create: { id: newId("acct"), platformId: other.id, name: "Stray" } } },
        }),
      ).rejects.toThrow(/nested write through Account.children/);
    });
    expect(await db().kycSubmission.count({ where: { id: submissionId } })).toBe(0);
    expect(await db().beneficiary.count({ where: { accountId: other.id } })).toBe(0);
    expect(await db().account.count({ where: { name: "Stray" } })).toBe(0);
  });

  it("answers a refused write with a logged 500, like any other bug", async () => {
    const { other, scope } = await twoPlatforms();
    const error = await withScope(scope, () =>
      tenantDb().recipient.create({ data: { id: newId("rcp"), accountId: other.id, name: "Stray" } }),
    ).catch((caught: unknown) => caught);
    // A plain Error, not an ApiError: the route wrapper maps it to err_internal (500) and logs it.
    expect(error).toBeInstanceOf(Error);
    expect(Object.getPrototypeOf(error)).toBe(Error.prototype);
  });
});
