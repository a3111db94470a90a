import { z } from "zod";
import { ApiError } from "@/lib/http/api-error";

export const pageQuerySchema = z.object({
  next: z.string().max(512).optional().meta({ description: "Opaque cursor from the previous page's `next`." }),
  order: z.enum(["asc", "desc"]).default("desc").meta({ description: "By creation time." }),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export type PageQuery = z.infer<typeof pageQuerySchema>;

export type Page<T> = { items: T[]; next: string | null };

type Cursor = { createdAt: Date; id: string; order: "asc" | "desc" };

/** base64url(JSON) of the last row's (createdAt, id) and the order it was read in. */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt.toISOString(), cursor.id, cursor.order])).toString("base64url");
}

const badCursor = () => new ApiError("err_bad_request", "next is not a cursor this API returned", { next: "invalid cursor" });

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
export async function paginate<T extends { id: string; createdAt: Date }>(
  query: PageQuery,
  fetch: (args: {
    where: object;
    orderBy: { createdAt?: "asc" | "desc"; id?: "asc" | "desc" }[];
    take: number;
  }) => Promise<T[]>,
): Promise<Page<T>> {
  const { order, limit } = query;
  let where: object = {};
  if (query.next !== undefined) {
    const cursor = decodeCursor(query.next);
    if (cursor.order !== order) {
      throw new ApiError("err_bad_request", "next was issued for the other order; pass the same order", { next: "order mismatch" });
    }
    const beyond = order === "desc" ? "lt" : "gt";
    where = {
      OR: [
        { createdAt: { [beyond]: cursor.createdAt } },
        { createdAt: cursor.createdAt, id: { [beyond]: cursor.id } },
      ],
    };
  }
  const rows = await fetch({ where, orderBy: [{ createdAt: order }, { id: order }], take: limit + 1 });
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    items,
    next: rows.length > limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id, order }) : null,
  };
}
