import { describe, expect, it } from "vitest";
import { immutable, isImmutable } from "@/lib/immutable";

describe("immutable()", () => {
  it("freezes a result all the way down and registers it", () => {
    const value = immutable([{ id: "a", tags: ["x"], nested: { list: [1] } }]);
    expect(isImmutable(value)).toBe(true);
    expect(Object.isFrozen(value[0])).toBe(true);
    expect(Object.isFrozen(value[0]!.tags)).toBe(true);
    expect(Object.isFrozen(value[0]!.nested.list)).toBe(true);
    expect(() => (value[0]!.tags as string[]).push("y")).toThrow(TypeError);
  });

  it("registers only what it was given: a frozen object alone is not immutable", () => {
    expect(isImmutable(Object.freeze({ id: "a" }))).toBe(false);
    expect(isImmutable(null)).toBe(false);
    expect(isImmutable("text")).toBe(false);
  });

  it("refuses a Date, which freezing cannot stop from changing, and binary data, which cannot be frozen", () => {
    expect(() => immutable({ at: new Date() })).toThrow(/Date/);
    expect(() => immutable({ data: Buffer.from("x") })).toThrow(/binary/);
  });
});
