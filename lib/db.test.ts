import { AsyncResource } from "node:async_hooks";
import { describe, expect, it } from "vitest";
import { db, inTransaction } from "@/lib/db";
import { createPlatform } from "@/lib/accounts/platforms";
import { newId } from "@/lib/ids/generate";
import { tenantDb, withScope } from "@/lib/tenancy";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the database client", () => {
  it("keeps a write made beside a transaction that rolls back (regression: it ran inside it and vanished)", async () => {
    const platform = await createPlatform({ name: "Beside a rollback" });
    const child = await db().account.create({
      data: { id: newId("acct"), platformId: platform.id, parentId: platform.id, name: "Child" },
    });
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

  it("inTransaction: db(), tenantDb() and a nested inTransaction() (which joins) all commit together or not at all; a nested $transaction is refused", async () => {
    const platform = await createPlatform({ name: "All or nothing" });
    const scope = { platformId: platform.id, accountId: platform.id };
    const externalId = `du-${Date.now()}`;
    const attempt = withScope(scope, () =>
      inTransaction(async () => {
        await db().account.update({ where: { id: platform.id }, data: { name: "Changed" } });
        await inTransaction(async () => {
          await tenantDb().delegatedUser.create({ data: { id: newId("du"), externalId, accountId: scope.accountId } });
        });
        throw new Error("late failure");
      }),
    );
    await expect(attempt).rejects.toThrow("late failure");
    expect((await db().account.findUniqueOrThrow({ where: { id: platform.id } })).name).toBe("All or nothing");
    expect(await db().delegatedUser.count({ where: { externalId } })).toBe(0);

    // Neither a silent join nor a second transaction beside the open one: refused, said so.
    await withScope(scope, () =>
      inTransaction(async () => {
        await expect(tenantDb().$transaction(async () => {})).rejects.toThrow(/inside inTransaction/);
        await expect(db().$transaction(async () => {})).rejects.toThrow(/inside inTransaction/);
      }),
    );

    await withScope(scope, () =>
      inTransaction(async () => {
        await db().account.update({ where: { id: platform.id }, data: { name: "Changed" } });
        await tenantDb().delegatedUser.create({ data: { id: newId("du"), externalId, accountId: scope.accountId } });
      }),
    );
    expect((await db().account.findUniqueOrThrow({ where: { id: platform.id } })).name).toBe("Changed");
    // Written inside the transaction too, in the scope's account.
    expect((await db().delegatedUser.findFirstOrThrow({ where: { externalId } })).accountId).toBe(platform.id);
  });

  it("inTransaction: findUnique calls made in the same tick inside and outside it answer from their own side (regression guard: Prisma batches them)", async () => {
    const platform = await createPlatform({ name: "Same tick" });
    // A context captured outside the transaction: code run in it is another request's.
    const anotherRequest = new AsyncResource("another request");
    let outside: Promise<{ name: string } | null> | undefined;
    await expect(
      inTransaction(async () => {
        await db().account.update({ where: { id: platform.id }, data: { name: "Inside only" } });
        // Both in one tick: Prisma batches findUnique calls of one shape made together into one query.
        const inside = db().account.findUnique({ where: { id: platform.id }, select: { name: true } });
        outside = anotherRequest.runInAsyncScope(() =>
          db().account.findUnique({ where: { id: platform.id }, select: { name: true } }),
        );
        expect((await inside)?.name).toBe("Inside only");
        await pause(20);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    // The other request waited for the transaction (it neither joined it nor blocked it) and read what stayed.
    expect((await outside!)?.name).toBe("Same tick");
  });

  it("inTransaction: a nested write Prisma runs as a transaction of its own is a savepoint inside it, and a query after the end is refused", async () => {
    const platform = await createPlatform({ name: "Nested" });
    let leftover: (() => Promise<unknown>) | undefined;
    const create = (name: string) =>
      db().account.create({
        data: {
          id: newId("acct"),
          platformId: platform.id,
          parentId: platform.id,
          name,
          children: { create: { id: newId("acct"), platformId: platform.id, name: `${name}, child` } },
        },
      });
    await inTransaction(async () => {
      await create("Kept");
      const client = db();
      leftover = () => client.account.count();
    });
    expect(await db().account.count({ where: { name: { startsWith: "Kept" } } })).toBe(2);
    await expect(
      inTransaction(async () => {
        await create("Rolled back");
        throw new Error("late failure");
      }),
    ).rejects.toThrow("late failure");
    expect(await db().account.count({ where: { name: { startsWith: "Rolled back" } } })).toBe(0);
    // The transaction's client, called after its transaction ended: refused, never run outside it.
    await expect(leftover!()).rejects.toThrow();
  });
});
