import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createPlatform } from "@/lib/accounts/platforms";
import { db } from "@/lib/db";
import { rawRead } from "@/lib/db/raw-read";
import { databaseFile, databaseProvider, env } from "@/lib/env";

const NAME_OF = `SELECT "name" FROM "Account" WHERE "id" = :id`;
const nameOf = async (id: string) => (await rawRead<{ name: string }>(NAME_OF, { id }))[0]?.name;

/** A commit by a connection of its own, as another instance of the service would make it. */
async function renameElsewhere(id: string, name: string) {
  if (databaseProvider() === "sqlite") {
    const other = new Database(databaseFile());
    try {
      other.prepare(`UPDATE "Account" SET "name" = ? WHERE "id" = ?`).run(name, id);
    } finally {
      other.close();
    }
    return;
  }
  const other = new pg.Client({ connectionString: env().DATABASE_URL });
  await other.connect();
  try {
    await other.query(`UPDATE "Account" SET "name" = $1 WHERE "id" = $2`, [name, id]);
  } finally {
    await other.end();
  }
}

describe("rawRead", () => {
  it("on SQLite keeps a read's rows while nothing is committed (PRAGMA data_version); PostgreSQL reads each time", async () => {
    const platform = await createPlatform({ name: "Kept" });
    const first = await rawRead(NAME_OF, { id: platform.id });
    const again = await rawRead(NAME_OF, { id: platform.id });
    expect(again).toEqual(first);
    expect(again === first).toBe(databaseProvider() === "sqlite");
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
