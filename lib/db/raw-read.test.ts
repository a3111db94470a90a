import { describe, expect, it } from "vitest";
import { createPlatform } from "@/lib/accounts/platforms";
import { db, inTransaction } from "@/lib/db";
import { newReadSnapshot, rawRead } from "@/lib/db/raw-read";
import { isImmutable } from "@/lib/immutable";
import { databaseProvider } from "@/lib/env";
import { commitElsewhere } from "@/lib/testing/elsewhere";
import { withinContext } from "@/lib/request-context";

const NAME_OF = `SELECT "name" FROM "Account" WHERE "id" = :id`;
const nameOf = async (id: string) => (await rawRead<{ name: string }>(NAME_OF, { id }))[0]?.name;

/** A commit by a connection of its own, as another instance of the service would make it. */
const renameElsewhere = (id: string, name: string) =>
  commitElsewhere(`UPDATE "Account" SET "name" = ? WHERE "id" = ?`, [name, id]);

describe("rawRead", () => {
  it("on SQLite keeps a read's rows while nothing is committed (PRAGMA data_version); PostgreSQL reads each time", async () => {
    const platform = await createPlatform({ name: "Kept" });
    const first = await rawRead(NAME_OF, { id: platform.id });
    const again = await rawRead(NAME_OF, { id: platform.id });
    expect(again).toEqual(first);
    expect(again === first).toBe(databaseProvider() === "sqlite");
    // Kept rows are immutable, so what a caller makes of them can be kept with them (the key list does).
    expect(isImmutable(first)).toBe(databaseProvider() === "sqlite");
    // Other parameters are another read.
    const other = await createPlatform({ name: "Other" });
    expect(await nameOf(other.id)).toBe("Other");
  });

  it("sees a commit by the service's own writer on the next read", async () => {
    const platform = await createPlatform({ name: "Before" });
    expect(await nameOf(platform.id)).toBe("Before");
    await db().account.update({ where: { id: platform.id }, data: { name: "After" } });
    expect(await nameOf(platform.id)).toBe("After");
  });

  it("sees a commit by another connection (another instance) on the next read", async () => {
    const platform = await createPlatform({ name: "Before" });
    expect(await nameOf(platform.id)).toBe("Before");
    await renameElsewhere(platform.id, "Renamed elsewhere");
    expect(await nameOf(platform.id)).toBe("Renamed elsewhere");
    await renameElsewhere(platform.id, "Renamed again");
    expect(await nameOf(platform.id)).toBe("Renamed again");
  });

  it("hands out rows no caller can change (a kept row changed by one request would mislead the next)", async () => {
    const platform = await createPlatform({ name: "Frozen" });
    const rows = await rawRead<{ name: string }>(NAME_OF, { id: platform.id });
    if (databaseProvider() === "sqlite") {
      expect(Object.isFrozen(rows)).toBe(true);
      expect(() => ((rows[0] as { name: string }).name = "Changed")).toThrow(TypeError);
    }
    expect(await nameOf(platform.id)).toBe("Frozen");
  });
});

describe("rawRead in a request (one snapshot for its reads)", () => {
  const inRequest = <T>(work: () => Promise<T>) => withinContext({ reads: newReadSnapshot() }, work);

  it("sees what its own process commits after the request's first read", async () => {
    const platform = await createPlatform({ name: "Before" });
    await inRequest(async () => {
      expect(await nameOf(platform.id)).toBe("Before");
      await db().account.update({ where: { id: platform.id }, data: { name: "After" } });
      expect(await nameOf(platform.id)).toBe("After");
      await inTransaction(async () => {
        await db().account.update({ where: { id: platform.id }, data: { name: "After a transaction" } });
      });
      expect(await nameOf(platform.id)).toBe("After a transaction");
    });
  });

  it("checks again after a read made while its own process had a transaction open (a change made before it commits after)", async () => {
    const platform = await createPlatform({ name: "Before" });
    await inRequest(async () => {
      await inTransaction(async () => {
        await db().account.update({ where: { id: platform.id }, data: { name: "Committed later" } });
        // The read connection cannot see the open transaction's change yet.
        expect(await nameOf(platform.id)).toBe("Before");
      });
      expect(await nameOf(platform.id)).toBe("Committed later");
    });
  });

  it("on SQLite reads one state of the database however the other instances commit meanwhile; the next request sees their commits", async () => {
    const platform = await createPlatform({ name: "Before" });
    await inRequest(async () => {
      expect(await nameOf(platform.id)).toBe("Before");
      await renameElsewhere(platform.id, "Renamed elsewhere");
      expect(await nameOf(platform.id)).toBe(databaseProvider() === "sqlite" ? "Before" : "Renamed elsewhere");
    });
    await inRequest(async () => expect(await nameOf(platform.id)).toBe("Renamed elsewhere"));
  });

  it("a request goes by a check made after it began; one that begins after another instance's commit sees it", async () => {
    const platform = await createPlatform({ name: "Before" });
    const early = newReadSnapshot();
    await inRequest(async () => expect(await nameOf(platform.id)).toBe("Before"));
    await renameElsewhere(platform.id, "Renamed elsewhere");
    // The commit came after the early request began: the check made since (by the request between) serves it.
    await withinContext({ reads: early }, async () =>
      expect(await nameOf(platform.id)).toBe(databaseProvider() === "sqlite" ? "Before" : "Renamed elsewhere"),
    );
    await inRequest(async () => expect(await nameOf(platform.id)).toBe("Renamed elsewhere"));
  });

  it("never goes by a check made before its own process committed", async () => {
    const platform = await createPlatform({ name: "Before" });
    const early = newReadSnapshot();
    await inRequest(async () => expect(await nameOf(platform.id)).toBe("Before"));
    await db().account.update({ where: { id: platform.id }, data: { name: "After" } });
    await withinContext({ reads: early }, async () => expect(await nameOf(platform.id)).toBe("After"));
  });
});
