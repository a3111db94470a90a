import type { Prisma } from "@/lib/generated/prisma/client";

type JsonValue = Prisma.JsonValue;
type JsonObject = Prisma.JsonObject;

// A Json column's value as the code uses it. Client-safe (types only from the generated client), so
// the presenters in schemas.ts use it too. Every Json column holds an array or an object, never a bare
// string: a string is JSON text, as a raw read (lib/db/raw-read.ts) hands the column out on both databases.

/** The value of a Json column read by Prisma (parsed) or raw (JSON text). */
export function jsonOf(value: JsonValue): JsonValue {
  if (typeof value !== "string") return value;
  const parsed: JsonValue = JSON.parse(value);
  return parsed;
}

const isJsonObject = (value: JsonValue): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A Json column holding an object; anything else reads as {}. */
export function jsonObject(value: JsonValue): JsonObject {
  const parsed = jsonOf(value);
  return isJsonObject(parsed) ? parsed : {};
}

/** A Json column holding a list of names: the ones `is` accepts, in order (names no longer known grant and show nothing). */
export function jsonNames<Name extends string>(value: JsonValue, is: (name: string) => name is Name): Name[] {
  const parsed = jsonOf(value);
  if (!Array.isArray(parsed)) return [];
  return parsed.filter((item): item is Name => typeof item === "string" && is(item));
}

/** Any string, as a `jsonNames` filter. */
export const isString = (value: string): value is string => typeof value === "string";

/** A Json column holding an object of string values; other values are left out. */
export function jsonStringRecord(value: JsonValue): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [key, item] of Object.entries(jsonObject(value))) if (typeof item === "string") record[key] = item;
  return record;
}
