// The API reference page (/docs) reads the OpenAPI document the service publishes at
// /v1/openapi.json (built by lib/openapi.ts from the routes' own zod schemas), so the page, the
// document and the routes cannot drift. This module turns that document into what the page lists:
// operations grouped by tag, with $refs resolved, and the few words each schema needs to be read.

/** A JSON Schema as lib/openapi.ts writes it (draft 2020-12, from zod). */
export type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema | boolean;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
};

export type Parameter = { name: string; in: string; required: boolean; description?: string; schema: Schema };

/** By media type: `application/json` mostly; an upload's `multipart/form-data`, a download's file types. */
type Content = Record<string, { schema: Schema }>;

export type Operation = {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  "x-permission"?: string | null;
  "x-extension"?: boolean;
  "x-platform-wide"?: boolean;
  parameters?: Parameter[];
  requestBody?: { content: Content };
  responses: Record<string, { description: string; content?: Content }>;
};

export type OpenApiDocument = {
  info: { title: string; version: string; description: string };
  components: { schemas: Record<string, Schema> };
  paths: Record<string, Record<string, Operation>>;
};

export type ReferenceOperation = Operation & { method: string; path: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Whether `operation` has what the page reads of every operation: its id, summary, tags and responses. */
const isOperation = (operation: unknown) =>
  isObject(operation) &&
  typeof operation.operationId === "string" &&
  typeof operation.summary === "string" &&
  Array.isArray(operation.tags) &&
  isObject(operation.responses);

/**
 * Whether `json` is an OpenAPI document as the page reads one: its info, its components' schemas, and
 * paths whose every operation has an id, a summary, tags and responses. The schemas within are JSON
 * Schema objects, read as far as they go.
 */
export function isOpenApiDocument(json: unknown): json is OpenApiDocument {
  if (!isObject(json) || !isObject(json.info) || !isObject(json.components) || !isObject(json.paths)) return false;
  const { info, components, paths } = json;
  return (
    typeof info.title === "string" &&
    typeof info.version === "string" &&
    isObject(components.schemas) &&
    Object.values(paths).every((methods) => isObject(methods) && Object.values(methods).every(isOperation))
  );
}

/** Tags that are not the product's own resources come last: the sandbox and the document itself. */
const LAST_TAGS = ["Sandbox", "Meta"];

/** Every operation of the document, grouped by its first tag, in the document's order. */
export function operationsByTag(document: OpenApiDocument): { tag: string; operations: ReferenceOperation[] }[] {
  const groups = new Map<string, ReferenceOperation[]>();
  for (const [path, methods] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(methods)) {
      const tag = operation.tags[0] ?? "Other";
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag)!.push({ ...operation, method: method.toUpperCase(), path });
    }
  const rank = (tag: string) => LAST_TAGS.indexOf(tag);
  return [...groups].sort(([a], [b]) => rank(a) - rank(b)).map(([tag, operations]) => ({ tag, operations }));
}

/** The component a `$ref` names ("#/components/schemas/Name"), with that name. */
export function resolveRef(document: OpenApiDocument, schema: Schema): { name: string | null; schema: Schema } {
  if (!schema.$ref) return { name: null, schema };
  const name = schema.$ref.split("/").pop()!;
  return { name, schema: document.components.schemas[name] ?? {} };
}

/** The schema's alternatives without `null`, and whether `null` was one of them. */
export function nullableParts(schema: Schema): { parts: Schema[]; nullable: boolean } {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (!alternatives) {
    const types = Array.isArray(schema.type) ? schema.type : null;
    if (types?.includes("null"))
      return { parts: [{ ...schema, type: types.filter((type) => type !== "null") }], nullable: true };
    return { parts: [schema], nullable: false };
  }
  const parts = alternatives.filter((part) => part.type !== "null");
  return { parts, nullable: parts.length < alternatives.length };
}

/** A one-line type: "string (date-time)", "array of string", "integer", "ApiKey", "one of: a, b". */
export function typeLabel(document: OpenApiDocument, schema: Schema): string {
  if (schema.$ref) return resolveRef(document, schema).name!;
  const { parts, nullable } = nullableParts(schema);
  const suffix = nullable ? " or null" : "";
  if (parts.length > 1) return parts.map((part) => typeLabel(document, part)).join(" | ") + suffix;
  const only = parts[0] ?? {};
  if (only !== schema) return typeLabel(document, only) + suffix;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : schema.type;
  if (type === "array") return `array of ${schema.items ? typeLabel(document, schema.items) : "anything"}`;
  if (type === "object" && !schema.properties && typeof schema.additionalProperties === "object")
    return `map of ${typeLabel(document, schema.additionalProperties)}`;
  if (schema.format) return `${type ?? "string"} (${schema.format})`;
  return type ?? "any";
}

/** The limits a reader needs: allowed values, lengths, ranges, default. The pattern only where no format says it. */
export function constraintsOf(schema: Schema): string[] {
  const notes: string[] = [];
  if (schema.enum) notes.push(`one of ${schema.enum.map((value) => JSON.stringify(value)).join(", ")}`);
  if (schema.minLength !== undefined || schema.maxLength !== undefined)
    notes.push(`${schema.minLength ?? 0}..${schema.maxLength ?? "∞"} characters`);
  if (schema.minimum !== undefined || schema.maximum !== undefined)
    notes.push(`${schema.minimum ?? "−∞"}..${schema.maximum ?? "∞"}`);
  if (schema.minItems !== undefined || schema.maxItems !== undefined)
    notes.push(`${schema.minItems ?? 0}..${schema.maxItems ?? "∞"} items`);
  if (schema.pattern && !schema.format && schema.pattern.length <= 60) notes.push(`pattern ${schema.pattern}`);
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  return notes;
}

/** An object schema's properties (through a $ref or a nullable wrapper), or null when it has none. */
export function objectOf(document: OpenApiDocument, schema: Schema): Schema | null {
  const resolved = resolveRef(document, schema).schema;
  const { parts } = nullableParts(resolved);
  const only = parts.length === 1 ? resolveRef(document, parts[0]!).schema : null;
  if (only?.properties) return only;
  if (only?.type === "array" && only.items) return objectOf(document, only.items);
  return null;
}
