import { describe, expect, it } from "vitest";
import { db, inTransaction } from "@/lib/db";
import { createPlatform } from "@/lib/accounts/create-platform";
import { newId } from "@/lib/ids";
import { tenantDb, withScope } from "@/lib/tenancy";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the database client", () => {
  it("keeps a write made beside a transaction that rolls back (regression: it ran inside it and vanished)", async () => {
    const platform = await createPlatform({ name: "Beside a rollback" });
    const child = await db().account.create({ data: { id: newId("acct"), platformId: platform.id, parentId: platform.id, name: "Child" } });
    const failing = db()
      .$transaction(async (tx) => {
        await tx.account.update({ where: { id: platform.id }, data: { name: "Renamed, then rolled back" } });
        await pause(50);
        throw new Error("the transaction fails");
      })
      .catch((error: Error) => error.message);
    await pause(10);
    // Another request's one-statement write while the transaction is open: it must wait, not join it.
    const beside = await db().account.updateMany({ where: { id: child.id }, data: { name: "Written beside" } });
    expect(beside.count).toBe(1);
    expect(await failing).toBe("the transaction fails");
    expect((await db().account.findUniqueOrThrow({ where: { id: child.id } })).name).toBe("Written beside");
    expect((await db().account.findUniqueOrThrow({ where: { id: platform.id } })).name).toBe("Beside a rollback");
  });

  it("inTransaction: db(), tenantDb() and nested $transaction calls all commit together or not at all", async () => {
    const platform = await createPlatform({ name: "All or nothing" });
    const scope = { platformId: platform.id, accountId: platform.id };
    const externalId = `du-${Date.now()}`;
    const attempt = withScope(scope, () =>
      inTransaction(async () => {
        await db().account.update({ where: { id: platform.id }, data: { name: "Changed" } });
        await tenantDb().$transaction(async (tx) => {
          await tx.delegatedUser.create({ data: { id: newId("du"), externalId, accountId: "" } });
        });
        throw new Error("late failure");
      }),
    );
    await expect(attempt).rejects.toThrow("late failure");
    expect((await db().account.findUniqueOrThrow({ where: { id: platform.id } })).name).toBe("All or nothing");
    expect(await db().delegatedUser.count({ where: { externalId } })).toBe(0);

    await withScope(scope, () =>
      inTransaction(async () => {
        await db().account.update({ where: { id: platform.id }, data: { name: "Changed" } });
        await tenantDb().delegatedUser.create({ data: { id: newId("du"), externalId, accountId: "" } });
      }),
    );
    expect((await db().account.findUniqueOrThrow({ where: { id: platform.id } })).name).toBe("Changed");
    // The tenancy proxy filled in the scope's account inside the transaction too.
    expect((await db().delegatedUser.findFirstOrThrow({ where: { externalId } })).accountId).toBe(platform.id);
  });
});
