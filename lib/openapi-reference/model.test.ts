import { describe, expect, it } from "vitest";
import { allEndpoints } from "@/lib/endpoints";
import { buildOpenApi } from "@/lib/openapi";
import { constraintsOf, isOpenApiDocument, objectOf, operationsByTag, typeLabel, type OpenApiDocument } from "./model";

const built: unknown = buildOpenApi();
if (!isOpenApiDocument(built)) throw new Error("the service's OpenAPI document is not one the reference page reads");
const document: OpenApiDocument = built;

describe("the API reference's reading of the OpenAPI document", () => {
  it("lists every operation once, grouped by tag, the sandbox and the document itself last", () => {
    const groups = operationsByTag(document);
    const listed = groups.flatMap(({ operations }) => operations.map((op) => `${op.method} ${op.path}`));
    expect(listed.sort()).toEqual(allEndpoints.map((endpoint) => `${endpoint.method} ${endpoint.path}`).sort());
    expect(groups.slice(-2).map(({ tag }) => tag)).toEqual(["Sandbox", "Meta"]);
    expect(groups[0]!.tag).not.toBe("Sandbox");
  });

  it("names types as a reader says them", () => {
    expect(typeLabel(document, { type: "string", format: "date-time" })).toBe("string (date-time)");
    expect(typeLabel(document, { type: "array", items: { type: "string" } })).toBe("array of string");
    expect(typeLabel(document, { anyOf: [{ type: "string" }, { type: "null" }] })).toBe("string or null");
    expect(typeLabel(document, { type: ["integer", "null"] })).toBe("integer or null");
    expect(typeLabel(document, { $ref: "#/components/schemas/Error" })).toBe("Error");
    expect(typeLabel(document, { type: "object", additionalProperties: { type: "string" } })).toBe("map of string");
  });

  it("spells out limits, and leaves out a pattern a format already says", () => {
    expect(constraintsOf({ type: "string", minLength: 1, maxLength: 100 })).toEqual(["1..100 characters"]);
    expect(constraintsOf({ type: "string", enum: ["asc", "desc"], default: "desc" })).toEqual([
      'one of "asc", "desc"',
      'default "desc"',
    ]);
    expect(constraintsOf({ type: "string", format: "date-time", pattern: "^\\d{4}-.*$" })).toEqual([]);
    expect(constraintsOf({ type: "integer", minimum: 1, maximum: 100 })).toEqual(["1..100"]);
  });

  it("finds an object's properties through a $ref, a nullable wrapper or an array", () => {
    const error = objectOf(document, { $ref: "#/components/schemas/Error" });
    expect(Object.keys(error?.properties ?? {})).toEqual(expect.arrayContaining(["error_code", "message"]));
    expect(objectOf(document, { anyOf: [{ $ref: "#/components/schemas/Error" }, { type: "null" }] })).toBe(error);
    expect(objectOf(document, { type: "array", items: { $ref: "#/components/schemas/Error" } })).toBe(error);
    expect(objectOf(document, { type: "string" })).toBeNull();
  });
});

describe("isOpenApiDocument", () => {
  it("takes the service's own document, and refuses one without what the page reads", () => {
    expect(isOpenApiDocument(buildOpenApi())).toBe(true);
    expect(isOpenApiDocument({ ...document, info: { version: "1" } })).toBe(false);
    expect(isOpenApiDocument({ ...document, paths: { "/v1/x": { get: { summary: "no id", tags: [] } } } })).toBe(false);
    expect(isOpenApiDocument(null)).toBe(false);
  });
});
