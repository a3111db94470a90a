import { z } from "zod";
import { DomainError } from "@/lib/errors";
import { text } from "@/lib/contract/text";

export const pageQuerySchema = z.object({
  next: text().max(512).optional().meta({ description: "Opaque cursor from the previous page's `next`." }),
  order: z.enum(["asc", "desc"]).default("desc").meta({ description: "By creation time." }),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export type PageQuery = z.infer<typeof pageQuerySchema>;

export type Page<T> = { items: T[]; next: string | null };

/** The `{ items, next }` envelope of a paginated list, named `<Item>Page` in the OpenAPI document. */
export function pageSchemaOf<S extends z.ZodType>(item: S, id: string) {
  return z
    .object({
      items: z.array(item),
      next: z.string().nullable().meta({ description: "Cursor of the next page; null on the last one." }),
    })
    .meta({ id });
}

type Cursor = { createdAt: Date; id: string; order: "asc" | "desc" };

/** base64url(JSON) of the last row's (createdAt, id) and the order it was read in. */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt.toISOString(), cursor.id, cursor.order])).toString("base64url");
}

const badCursor = () =>
  new DomainError("bad_request", "next is not a cursor this API returned", { next: "invalid cursor" });

export function decodeCursor(text: string): Cursor {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) throw badCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    throw badCursor();
  }
  const shape = z.tuple([z.iso.datetime(), z.string().min(1).max(64), z.enum(["asc", "desc"])]).safeParse(parsed);
  if (!shape.success) throw badCursor();
  const [createdAt, id, order] = shape.data;
  return { createdAt: new Date(createdAt), id, order };
}

/**
 * Keyset pagination over (createdAt, id): each page starts strictly after the last row of the one
 * before, so rows inserted while a client pages never repeat or push an existing row out of view,
 * and a deep page costs the same as the first (no OFFSET scan).
 */
export async function paginate<T extends { id: string }, F extends string = "createdAt">(
  query: PageQuery,
  findRows: (args: {
    where: object;
    orderBy: Partial<Record<F | "id", "asc" | "desc">>[];
    take: number;
  }) => Promise<T[]>,
  /** The creation-time column to order by, when it is not `createdAt`. */
  timeField: F = "createdAt" as F,
): Promise<Page<T>> {
  const { order, limit } = query;
  let where: object = {};
  if (query.next !== undefined) {
    const cursor = decodeCursor(query.next);
    if (cursor.order !== order) {
      throw new DomainError("bad_request", "next was issued for the other order; pass the same order", {
        next: "order mismatch",
      });
    }
    const beyond = order === "desc" ? "lt" : "gt";
    // The plain range bound lets SQLite seek into the (…, createdAt, id) index; the OR alone is not
    // usable as an index range and would rescan every row before the cursor on each page.
    where = {
      [timeField]: { [order === "desc" ? "lte" : "gte"]: cursor.createdAt },
      OR: [
        { [timeField]: { [beyond]: cursor.createdAt } },
        { [timeField]: cursor.createdAt, id: { [beyond]: cursor.id } },
      ],
    };
  }
  const orderBy = [{ [timeField]: order }, { id: order }] as Partial<Record<F | "id", "asc" | "desc">>[];
  const rows = await findRows({ where, orderBy, take: limit + 1 });
  const items = rows.slice(0, limit);
  const last = items.at(-1) as (T & Record<F, Date>) | undefined;
  return {
    items,
    next: rows.length > limit && last ? encodeCursor({ createdAt: last[timeField], id: last.id, order }) : null,
  };
}
