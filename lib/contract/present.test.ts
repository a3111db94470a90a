import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { presenterOf } from "@/lib/contract/present";

const thingSchema = z.object({ id: z.string(), name: z.string().nullable(), createdAt: z.iso.datetime() });
const presentThing = presenterOf(thingSchema);

describe("presenterOf(schema)", () => {
  it("copies the fields the schema names, and nothing else of the row", () => {
    const createdAt = new Date("2026-11-24T12:00:00.000Z");
    const presented = presentThing({ id: "th_1", name: null, createdAt, accountId: "acct_1", secretHash: "x" });
    expect(presented).toEqual({ id: "th_1", name: null, createdAt });
    expect(Object.keys(presented)).toEqual(["id", "name", "createdAt"]);
    expectTypeOf(presented).toEqualTypeOf<{ id: string; name: null; createdAt: Date }>();
  });

  it("is checked by the compiler: the row must hold every field, each in a type the schema takes", () => {
    // @ts-expect-error the row has no createdAt
    void (() => presentThing({ id: "th_1", name: null }));
    // @ts-expect-error a number where the schema wants a string
    void (() => presentThing({ id: 1, name: null, createdAt: new Date() }));
  });
});
