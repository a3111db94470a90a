import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { databaseProvider } from "@/lib/env";

describe("durability", () => {
  it("a commit is on disk before it is acknowledged (SQLite: synchronous FULL on the connection that writes; PostgreSQL: synchronous_commit on)", async () => {
    if (databaseProvider() === "sqlite") {
      // 2 is FULL; better-sqlite3's own default in WAL mode is 1 (NORMAL), under which a power cut can lose the last commits.
      const [row] = await db().$queryRawUnsafe<{ synchronous: number | bigint }[]>("PRAGMA synchronous");
      expect(Number(row?.synchronous)).toBe(2);
      const [mode] = await db().$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode");
      expect(mode?.journal_mode).toBe("wal");
    } else {
      const [row] = await db().$queryRawUnsafe<{ synchronous_commit: string }[]>("SHOW synchronous_commit");
      expect(row?.synchronous_commit).toBe("on");
    }
  });
});
