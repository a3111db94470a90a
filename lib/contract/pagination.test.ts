import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { toApiError } from "@/lib/http/api-error";
import { rejectionOf } from "@/lib/testing/errors";
import { decodeCursor, encodeCursor, pageQuerySchema, paginate, type PageQuery } from "@/lib/contract/pagination";

const b64url = (value: unknown) =>
  Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");

/** Calls fn and returns how the API answers the DomainError it throws (fails the test if it throws something else or nothing). */
const apiErrorOf = async (fn: () => unknown) => toApiError(await rejectionOf(DomainError, fn));

describe("encodeCursor / decodeCursor", () => {
  it("round-trips a cursor", () => {
    const cursor = { createdAt: new Date("2026-11-22T13:54:52.123Z"), id: "acct_abc123", order: "asc" as const };
    const text = encodeCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(text)).toEqual(cursor);
  });

  it("round-trips both orders", () => {
    for (const order of ["asc", "desc"] as const) {
      expect(decodeCursor(encodeCursor({ createdAt: new Date(0), id: "x", order })).order).toBe(order);
    }
  });

  it.each([
    ["an empty string", ""],
    ["non-base64url characters", "abc+def/"],
    ["padding", `${b64url(["2026-01-01T00:00:00.000Z", "x", "asc"])}=`],
    ["spaces", "abc def"],
    ["base64url of text that is not JSON", b64url("hello, world")],
    ["plain garbage", "garbage"],
    ["an object", b64url({ createdAt: "2026-01-01T00:00:00.000Z", id: "x", order: "asc" })],
    ["a bad date", b64url(["yesterday", "x", "asc"])],
    ["an empty id", b64url(["2026-01-01T00:00:00.000Z", "", "asc"])],
    ["a too-long id", b64url(["2026-01-01T00:00:00.000Z", "x".repeat(65), "asc"])],
    ["a numeric id", b64url(["2026-01-01T00:00:00.000Z", 5, "asc"])],
    ["an unknown order", b64url(["2026-01-01T00:00:00.000Z", "x", "sideways"])],
    ["a missing element", b64url(["2026-01-01T00:00:00.000Z", "x"])],
    ["an extra element", b64url(["2026-01-01T00:00:00.000Z", "x", "asc", "more"])],
    ["null", b64url(null)],
  ])("rejects %s with a 400 err_bad_request", async (_, text) => {
    const error = await apiErrorOf(() => decodeCursor(text));
    expect(error.code).toBe("err_bad_request");
    expect(error.status).toBe(400);
  });
});

describe("pageQuerySchema", () => {
  it("defaults to newest first, 20 per page, no cursor", () => {
    expect(pageQuerySchema.parse({})).toEqual({ order: "desc", limit: 20 });
  });

  it("coerces a numeric string limit", () => {
    expect(pageQuerySchema.parse({ limit: "100" }).limit).toBe(100);
    expect(pageQuerySchema.parse({ limit: "1" }).limit).toBe(1);
  });

  it.each(["0", "101", "abc", "2.5", "-1"])("refuses the limit %j", (limit) => {
    const result = pageQuerySchema.safeParse({ limit });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.path).toEqual(["limit"]);
  });

  it("refuses an unknown order", () => {
    expect(pageQuerySchema.safeParse({ order: "newest" }).success).toBe(false);
  });
});

describe("paginate", () => {
  type Row = { id: string; createdAt: Date };
  const BASE = Date.parse("2026-01-01T00:00:00.000Z");

  /** 25 rows in groups of four sharing one createdAt, with ids not in creation order. */
  async function seed(platformId: string): Promise<Row[]> {
    const rows = Array.from({ length: 25 }, (_, i) => ({
      id: `${platformId}_${String((i * 7) % 25).padStart(2, "0")}`,
      platformId,
      name: `Account ${i}`,
      createdAt: new Date(BASE + Math.floor(i / 4) * 60_000),
    }));
    await db().account.createMany({ data: rows });
    return rows.map(({ id, createdAt }) => ({ id, createdAt }));
  }

  const sorted = (rows: Row[], order: "asc" | "desc") => {
    const asc = [...rows].sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    return order === "asc" ? asc : asc.reverse();
  };

  const fetchFor =
    (platformId: string) =>
    ({ where, orderBy, take }: { where: object; orderBy: object[]; take: number }) =>
      db().account.findMany({
        where: { AND: [where, { platformId }] },
        orderBy,
        take,
        select: { id: true, createdAt: true },
      });

  async function pageThrough(platformId: string, order: "asc" | "desc", onPage?: (page: number) => Promise<void>) {
    const seen: string[] = [];
    let next: string | undefined;
    let pages = 0;
    do {
      const query: PageQuery = { order, limit: 7, ...(next ? { next } : {}) };
      const page = await paginate(query, fetchFor(platformId));
      pages += 1;
      expect(page.items.length).toBeLessThanOrEqual(7);
      seen.push(...page.items.map((row) => row.id));
      next = page.next ?? undefined;
      if (next) expect(page.items).toHaveLength(7);
      await onPage?.(pages);
    } while (next && pages < 20);
    return { seen, pages };
  }

  it("shares createdAt between rows, so ids must break ties", async () => {
    const rows = await seed("tie");
    const distinct = new Set(rows.map((row) => row.createdAt.getTime()));
    expect(distinct.size).toBeLessThan(rows.length);
  });

  it.each(["asc", "desc"] as const)("visits every row exactly once, in %s order", async (order) => {
    const platformId = `all${order}`;
    const rows = await seed(platformId);
    const { seen, pages } = await pageThrough(platformId, order);
    expect(pages).toBe(4); // 7 + 7 + 7 + 4
    expect(seen).toEqual(sorted(rows, order).map((row) => row.id));
  });

  it("returns next === null on the last page, even when it is exactly full", async () => {
    const platformId = "exact";
    const rows = await seed(platformId);
    const first = await paginate({ order: "asc", limit: 25 }, fetchFor(platformId));
    expect(first.items).toHaveLength(rows.length);
    expect(first.next).toBeNull();
    const partial = await paginate({ order: "asc", limit: 24 }, fetchFor(platformId));
    expect(partial.next).not.toBeNull();
  });

  it("returns an empty page with no next when nothing matches", async () => {
    expect(await paginate({ order: "desc", limit: 7 }, fetchFor("nobody"))).toEqual({ items: [], next: null });
  });

  it.each(["asc", "desc"] as const)(
    "neither repeats nor skips existing rows when rows are inserted while paging (%s)",
    async (order) => {
      const platformId = `ins${order}`;
      const rows = await seed(platformId);
      let added = 0;
      const { seen } = await pageThrough(platformId, order, async (page) => {
        if (page > 2) return;
        // Rows before the start and after the end of the order, and one tied with existing rows.
        await db().account.createMany({
          data: [
            {
              id: `${platformId}_new_early${page}`,
              platformId,
              name: "early",
              createdAt: new Date(BASE - 60_000 * page),
            },
            {
              id: `${platformId}_new_late${page}`,
              platformId,
              name: "late",
              createdAt: new Date(BASE + 3_600_000 * page),
            },
            { id: `${platformId}_new_tie${page}`, platformId, name: "tie", createdAt: new Date(BASE + 3 * 60_000) },
          ],
        });
        added += 3;
      });
      expect(added).toBe(6);
      const existing = new Set(rows.map((row) => row.id));
      const seenExisting = seen.filter((id) => existing.has(id));
      expect(seenExisting).toEqual(sorted(rows, order).map((row) => row.id));
      expect(new Set(seen).size).toBe(seen.length);
    },
  );

  it("refuses a cursor issued for the other order with 400", async () => {
    const platformId = "mismatch";
    await seed(platformId);
    const first = await paginate({ order: "desc", limit: 7 }, fetchFor(platformId));
    expect(first.next).not.toBeNull();
    const error = await apiErrorOf(() => paginate({ order: "asc", limit: 7, next: first.next! }, fetchFor(platformId)));
    expect(error.code).toBe("err_bad_request");
    expect(error.status).toBe(400);
  });

  it("refuses a malformed cursor before querying", async () => {
    let called = false;
    const error = await apiErrorOf(() =>
      paginate({ order: "asc", limit: 7, next: "not a cursor" }, async () => {
        called = true;
        return [];
      }),
    );
    expect(error.status).toBe(400);
    expect(called).toBe(false);
  });
});
