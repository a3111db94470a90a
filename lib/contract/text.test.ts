import { describe, expect, it } from "vitest";
import { z } from "zod";
import { validationError } from "@/lib/http/api-error";
import {
  freeText,
  prototypeKeyIssues,
  prototypeKeyPaths,
  text,
  textProblem,
  withoutPrototypeKeys,
} from "@/lib/contract/text";

const C0 = Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code));
const C1 = Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(0x80 + code));
const CONTROLS = [...C0, "\u007F", ...C1];
const LONE_SURROGATES = ["\uD800", "\uDBFF", "\uDC00", "\uDFFF", "a\uD83Db", "\uDE00\uD83D", "x\uD800"];

const messageOf = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? null : result.error.issues[0]!.message;
};

describe("text()", () => {
  it("accepts ordinary text, including emoji, joiners, combining marks, right-to-left scripts and the implicit bidi marks", () => {
    for (const value of [
      "",
      "Acme GmbH",
      "Zoë Ørsted",
      "😀",
      "👩‍👩‍👧‍👦",
      "e\u0301",
      "ﷺ",
      "𝕏",
      "\u00A0",
      "\u00FF",
      "שלום עולם",
      "مرحبا",
      "a\u200Eb\u200Fc\u061C",
    ]) {
      expect(text().safeParse(value).success, JSON.stringify(value)).toBe(true);
    }
  });

  it("refuses the bidirectional embeddings, overrides and isolates, and the line and paragraph separators, naming the character", () => {
    for (const code of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]) {
      const name = `U+${code.toString(16).toUpperCase()}`;
      expect(messageOf(text(), `invoice${String.fromCharCode(code)}fdp.exe`), name).toBe(
        `must not contain bidirectional control characters (found ${name})`,
      );
    }
    expect(messageOf(text(), "one\u2028two")).toBe("must not contain line or paragraph separators (found U+2028)");
    expect(messageOf(text(), "one\u2029two")).toBe("must not contain line or paragraph separators (found U+2029)");
    // Their neighbours are ordinary text.
    for (const value of ["a\u2027b", "a\u202Fb", "a\u2065b", "a\u206Ab"])
      expect(text().safeParse(value).success, JSON.stringify(value)).toBe(true);
  });

  it("refuses every C0 control (tab and line feed too), DEL and every C1 control, naming the character", () => {
    for (const control of CONTROLS) {
      const code = `U+${control.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
      expect(messageOf(text(), `a${control}b`)).toBe(`must not contain control characters (found ${code})`);
    }
  });

  it("refuses lone surrogates, accepts a proper pair", () => {
    for (const value of LONE_SURROGATES)
      expect(messageOf(text(), value), JSON.stringify(value)).toBe(
        "must be well-formed Unicode (it holds a lone surrogate)",
      );
    expect(text().safeParse("\uD83D\uDE00").success).toBe(true);
  });

  it("chains like z.string(): the character check comes first, then trim, length and pattern", () => {
    const name = text().trim().min(1, "is required").max(5);
    expect(name.parse("  Ada ")).toBe("Ada");
    expect(messageOf(name, " \u0000 ")).toBe("must not contain control characters (found U+0000)");
    expect(messageOf(name, "   ")).toBe("is required");
    const id = text().regex(/^key_[a-z0-9]+$/, "must be a key id");
    expect(messageOf(id, "key_\u0085")).toBe("must not contain control characters (found U+0085)");
    expect(messageOf(id, "key_A")).toBe("must be a key id");
  });

  it("keeps its own error for a missing or wrongly typed value", () => {
    const required = text({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") });
    expect(messageOf(z.object({ name: required }), {})).toBe("is required");
    expect(messageOf(required, 5)).toBe("must be a string");
    expect(messageOf(required, "\u0007")).toBe("must not contain control characters (found U+0007)");
  });

  it("leaves the JSON Schema of the field as z.string() makes it", () => {
    expect(z.toJSONSchema(text().trim().min(1).max(5))).toEqual(z.toJSONSchema(z.string().trim().min(1).max(5)));
  });
});

describe("freeText()", () => {
  it("allows tab and line feed, nothing else of the controls", () => {
    expect(freeText().parse("First line\n\tsecond line")).toBe("First line\n\tsecond line");
    for (const control of CONTROLS.filter((char) => char !== "\t" && char !== "\n")) {
      const code = `U+${control.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
      expect(messageOf(freeText(), `a${control}b`)).toBe(
        `must not contain control characters other than tab and line feed (found ${code})`,
      );
    }
  });

  it("keeps its rules: bidirectional controls and line separators belong to running text", () => {
    for (const value of ["\u202Bשלום\u202C world", "a\u2067b\u2069", "one\u2028two\u2029"])
      expect(freeText().parse(value)).toBe(value);
  });

  it("refuses carriage return (a Windows line break) and lone surrogates", () => {
    expect(messageOf(freeText(), "one\r\ntwo")).toMatch(/U\+000D/);
    expect(messageOf(freeText(), "\uD800")).toBe("must be well-formed Unicode (it holds a lone surrogate)");
  });

  it("textProblem names the problem, or null", () => {
    expect(textProblem("fine")).toBeNull();
    expect(textProblem("a\nb", { freeText: true })).toBeNull();
    expect(textProblem("a\nb")).toMatch(/U\+000A/);
    expect(textProblem("a\u202Eb")).toMatch(/bidirectional control characters \(found U\+202E\)/);
    expect(textProblem("a\u202Eb", { freeText: true })).toBeNull();
  });
});

describe("prototype keys", () => {
  it("finds __proto__, constructor and prototype at any depth of a parsed body, in arrays too", () => {
    const body = JSON.parse(
      '{"a":{"b":[{"__proto__":{"polluted":1}}]},"constructor":{"prototype":1},"c":{"prototype":2},"d":"__proto__"}',
    );
    const paths = prototypeKeyPaths(body).map((path) => path.join("."));
    expect(paths.sort()).toEqual(["a.b.0.__proto__", "c.prototype", "constructor"]);
    expect(prototypeKeyPaths({ a: { b: [1, "constructor", null] } })).toEqual([]);
    expect(prototypeKeyPaths("__proto__")).toEqual([]);
  });

  it("walks a body nested 100 000 levels deep without overflowing the stack", () => {
    const deep = JSON.parse(`${'{"a":'.repeat(100_000)}{"__proto__":1}${"}".repeat(100_000)}`);
    const [path] = prototypeKeyPaths(deep);
    expect(path).toHaveLength(100_001);
    expect(path!.at(-1)).toBe("__proto__");
  });

  it("withoutPrototypeKeys refuses each one with a 422 detail of its own and keeps the schema's types and JSON Schema", () => {
    const map = z.record(z.string(), z.unknown());
    const guarded = z.object({ flags: withoutPrototypeKeys(map) });
    const result = guarded.safeParse(JSON.parse('{"flags":{"ok":1,"__proto__":{"x":1},"nested":{"constructor":1}}}'));
    expect(result.success).toBe(false);
    const error = validationError(result.error!);
    expect(error.status).toBe(422);
    expect({ ...error.details }).toEqual({
      "flags.__proto__": "is not accepted as a key (__proto__, constructor, prototype never are)",
      "flags.nested.constructor": "is not accepted as a key (__proto__, constructor, prototype never are)",
    });
    expect(guarded.parse({ flags: { ok: 1 } })).toEqual({ flags: { ok: 1 } });
    expect(z.toJSONSchema(withoutPrototypeKeys(map), { io: "input" })).toEqual(z.toJSONSchema(map, { io: "input" }));
  });
});

describe("validationError details", () => {
  it("are a null-prototype object, so a field path named __proto__ is an own key like any other", () => {
    const error = validationError([
      ...prototypeKeyIssues(JSON.parse('{"__proto__":{"isAdmin":true},"constructor":1}')),
      { code: "custom", path: ["name"], message: "is required", input: undefined },
      { code: "custom", path: ["name"], message: "second issue on name is not shown", input: undefined },
    ]);
    const details = error.details!;
    expect(Object.getPrototypeOf(details)).toBeNull();
    expect(Object.keys(details).sort()).toEqual(["__proto__", "constructor", "name"]);
    expect(details.name).toBe("is required");
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    // Serialised as before: an ordinary JSON object, "__proto__" included as a plain key.
    const body = JSON.parse(JSON.stringify(error.body("req_1")));
    expect(Object.keys(body)).toEqual(["error_code", "message", "http_code", "details", "request_id"]);
    expect(Object.keys(body.details).sort()).toEqual(["__proto__", "constructor", "name"]);
    expect(body.error_code).toBe("err_validation");
    expect(body.http_code).toBe(422);
    expect(body.message).toMatch(/^(__proto__|constructor): is not accepted as a key/);
  });

  it("keep the first message per field and name the body, query or params when the path is empty", () => {
    expect({
      ...validationError([{ code: "custom", path: [], message: "provide at least one field", input: undefined }])
        .details,
    }).toEqual({
      body: "provide at least one field",
    });
    expect({
      ...validationError([{ code: "custom", path: [], message: "bad", input: undefined }], "query").details,
    }).toEqual({ query: "bad" });
  });
});
