import { describe, expect, it } from "vitest";
import { createPlatform } from "@/lib/accounts/platforms";
import { db, inTransaction } from "@/lib/db";
import { rawRead } from "@/lib/db/raw-read";
import { isImmutable } from "@/lib/immutable";
import { newId } from "@/lib/ids/generate";
import { databaseProvider } from "@/lib/env";
import { commitElsewhere } from "@/lib/testing/elsewhere";

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

describe("rawRead on SQLite: PRAGMA data_version decides", () => {
  const sqlite = databaseProvider() === "sqlite";

  it("sees what its own process commits, in a transaction or not, and not a transaction's change before it commits", async () => {
    const platform = await createPlatform({ name: "Before" });
    expect(await nameOf(platform.id)).toBe("Before");
    await inTransaction(async () => {
      await db().account.update({ where: { id: platform.id }, data: { name: "Committed later" } });
      // The read connection cannot see the open transaction's change yet.
      expect(await nameOf(platform.id)).toBe("Before");
    });
    expect(await nameOf(platform.id)).toBe("Committed later");
  });

  it("reads again after any commit of the service's own, and keeps rows while nothing is committed", async () => {
    const platform = await createPlatform({ name: "Kept until a commit" });
    const first = await rawRead(NAME_OF, { id: platform.id });
    expect((await rawRead(NAME_OF, { id: platform.id })) === first).toBe(sqlite);
    await inTransaction(async () => {
      await db().delegatedUser.create({ data: { id: newId("du"), accountId: platform.id, externalId: "any" } });
    });
    // A commit of any table: the rows are read again (and are the same).
    const after = await rawRead(NAME_OF, { id: platform.id });
    expect(after === first).toBe(false);
    expect(after).toEqual(first);
  });

  it("a commit by another instance before its own transaction still shows: its own commit keeps nothing then", async () => {
    const platform = await createPlatform({ name: "Before" });
    expect(await nameOf(platform.id)).toBe("Before");
    await renameElsewhere(platform.id, "Renamed elsewhere");
    await inTransaction(async () => {
      await db().delegatedUser.create({
        data: { id: newId("du"), accountId: platform.id, externalId: "after the rename" },
      });
    });
    expect(await nameOf(platform.id)).toBe("Renamed elsewhere");
  });

  it("sees another instance's commit on the very next read, however soon", async () => {
    const platform = await createPlatform({ name: "Before" });
    for (let round = 0; round < 20; round += 1) {
      expect(await nameOf(platform.id)).toBe(round === 0 ? "Before" : `Round ${round - 1}`);
      await renameElsewhere(platform.id, `Round ${round}`);
    }
    expect(await nameOf(platform.id)).toBe("Round 19");
  });

  it("after a checkpoint that starts the WAL over, still sees each commit", async () => {
    const platform = await createPlatform({ name: "Before" });
    expect(await nameOf(platform.id)).toBe("Before");
    if (sqlite) await commitElsewhere("PRAGMA wal_checkpoint(TRUNCATE)");
    await renameElsewhere(platform.id, "After the checkpoint");
    expect(await nameOf(platform.id)).toBe("After the checkpoint");
  });
});
