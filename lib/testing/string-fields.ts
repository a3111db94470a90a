// Finds the string fields of an input schema, by looking into zod's definitions: the tests use it
// to check that every string a client sends goes through the shared text schema (lib/contract/text.ts).

type ZodDef = {
  type: string;
  format?: string;
  innerType?: unknown;
  in?: unknown;
  out?: unknown;
  shape?: Record<string, unknown>;
  element?: unknown;
  options?: unknown[];
  valueType?: unknown;
};

const defOf = (schema: unknown): ZodDef | undefined => (schema as { _zod?: { def?: ZodDef } } | undefined)?._zod?.def;

export type StringField = {
  /** Path from the schema's root; an array element is index 0. */
  path: (string | number)[];
  /** The string schema that sees the client's value. */
  schema: { safeParse(value: unknown): { success: boolean; error?: { issues: { message: string }[] } } };
  /** A zod string format (email, datetime, date...), whose own pattern judges the value, or undefined. */
  format?: string;
};

/** Every string field of `schema` at any depth, through optional, default, nullable, pipes and arrays. */
export function stringFields(
  schema: unknown,
  path: (string | number)[] = [],
  seen = new Set<unknown>(),
): StringField[] {
  const def = defOf(schema);
  if (!def || seen.has(schema)) return [];
  seen.add(schema);
  switch (def.type) {
    case "string":
      return [{ path, schema: schema as StringField["schema"], format: def.format }];
    case "object":
      return Object.entries(def.shape ?? {}).flatMap(([key, field]) => stringFields(field, [...path, key], seen));
    case "array":
      return stringFields(def.element, [...path, 0], seen);
    case "record":
      return stringFields(def.valueType, [...path, "key"], seen);
    case "union":
      return (def.options ?? []).flatMap((option) => stringFields(option, path, seen));
    case "pipe":
      // A preprocess is a pipe from a transform: the client's value meets the schema after it.
      return defOf(def.in)?.type === "transform" ? stringFields(def.out, path, seen) : stringFields(def.in, path, seen);
    default:
      return def.innerType !== undefined ? stringFields(def.innerType, path, seen) : [];
  }
}

/** Builds `{ a: { b: [value] } }` for the path ["a", "b", 0]. */
export function valueAt(path: (string | number)[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => (typeof key === "number" ? [inner] : { [key]: inner }), value);
}
