import { z } from "zod";

// The one string schema for everything a client sends (bodies, queries, path params), and the
// guard for map keys. Shared by the API and the dashboard's forms: zod only, no server-only imports.

/** C0 controls, DEL and C1 controls. */
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
/** The same less tab and line feed, which free text (a reason, a description) may hold. */
const CONTROL_IN_FREE_TEXT = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;
/**
 * Bidirectional embeddings, overrides and isolates (U+202A..U+202E, U+2066..U+2069), which make a
 * name show in another order than it is stored ("Trojan Source"), and the line and paragraph
 * separators (U+2028, U+2029), which break a single line. Refused in single-line text only.
 */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
const LINE_SEPARATOR = /[\u2028\u2029]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const codePoint = (char: string) => `U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;

// String.prototype.isWellFormed is in every supported Node; the pattern is for browsers without it (Firefox before 119),
// since the forms validate with these same rules.
const isWellFormed = (value: string) =>
  typeof value.isWellFormed === "function" ? value.isWellFormed() : !LONE_SURROGATE.test(value);

/**
 * Why `value` is not acceptable text, or null. Ill-formed Unicode (a lone surrogate) cannot be
 * stored or shown faithfully; control characters hide in logs, terminals and CSV exports; single-line
 * text (not `freeText`) also refuses bidirectional controls and line separators.
 */
export function textProblem(value: string, { freeText = false }: { freeText?: boolean } = {}): string | null {
  if (!isWellFormed(value)) return "must be well-formed Unicode (it holds a lone surrogate)";
  const control = (freeText ? CONTROL_IN_FREE_TEXT : CONTROL).exec(value);
  if (control) {
    return freeText
      ? `must not contain control characters other than tab and line feed (found ${codePoint(control[0])})`
      : `must not contain control characters (found ${codePoint(control[0])})`;
  }
  if (freeText) return null;
  const bidi = BIDI_CONTROL.exec(value);
  if (bidi) return `must not contain bidirectional control characters (found ${codePoint(bidi[0])})`;
  const separator = LINE_SEPARATOR.exec(value);
  if (separator) return `must not contain line or paragraph separators (found ${codePoint(separator[0])})`;
  return null;
}

type StringParams = Parameters<typeof z.string>[0];

const textSchemaOf = (freeText: boolean, params?: StringParams) =>
  z.string(params).superRefine((value, context) => {
    const problem = textProblem(value, { freeText });
    if (problem) context.addIssue({ code: "custom", message: problem });
  });

/** An incoming single-line string: well-formed Unicode without control characters, bidirectional controls or line separators. Chain `.trim()`, `.max()`, `.regex()` as on `z.string()`. */
export const text = (params?: StringParams) => textSchemaOf(false, params);

/** Free text a person writes in a text area (a decision's reason): control characters refused as in `text()`, but tab and line feed allowed, and bidirectional controls and line separators too (they belong to running text in right-to-left scripts). */
export const freeText = (params?: StringParams) => textSchemaOf(true, params);

// --- Map keys ------------------------------------------------------------------------------------

/** Keys that name parts of JavaScript's object model: never accepted as map keys. */
export const PROTOTYPE_KEYS: readonly string[] = ["__proto__", "constructor", "prototype"];

export const isPrototypeKey = (key: string) => PROTOTYPE_KEYS.includes(key);

const PROTOTYPE_KEY_MESSAGE = `is not accepted as a key (${PROTOTYPE_KEYS.join(", ")} never are)`;

/**
 * The paths of every prototype key at any depth of a parsed JSON value (JSON.parse makes
 * `"__proto__"` an own property, which zod then drops without a word). Walks with its own stack, so
 * a deeply nested body cannot overflow the call stack.
 */
export function prototypeKeyPaths(value: unknown): (string | number)[][] {
  type Node = { value: unknown; key: string | number | null; parent: Node | null };
  // Each node points at its parent, so a path is built only for a key that is found (a copy per
  // level would cost depth squared on a deeply nested body).
  const pathOf = (node: Node, key: string) => {
    const path: (string | number)[] = [key];
    for (let at: Node | null = node; at && at.key !== null; at = at.parent) path.unshift(at.key);
    return path;
  };
  const found: (string | number)[][] = [];
  const stack: Node[] = [{ value, key: null, parent: null }];
  while (stack.length) {
    const node = stack.pop()!;
    const item = node.value;
    if (typeof item !== "object" || item === null) continue;
    if (Array.isArray(item)) {
      item.forEach((element, index) => stack.push({ value: element, key: index, parent: node }));
      continue;
    }
    for (const key of Object.keys(item)) {
      if (isPrototypeKey(key)) found.push(pathOf(node, key));
      else stack.push({ value: (item as Record<string, unknown>)[key], key, parent: node });
    }
  }
  return found;
}

/** 422 issues, one per prototype key in `value`, for validationError(). */
export const prototypeKeyIssues = (value: unknown): z.core.$ZodIssue[] =>
  prototypeKeyPaths(value).map((path) => ({ code: "custom", path, message: PROTOTYPE_KEY_MESSAGE, input: undefined }));

/**
 * A map (an object whose keys the client chooses) that refuses prototype keys at any depth with a
 * 422 naming each one. Input and output types and the JSON Schema stay those of `schema`.
 */
export function withoutPrototypeKeys<S extends z.ZodType>(schema: S) {
  return z.preprocess<unknown, S, z.input<S>>((value, context) => {
    for (const path of prototypeKeyPaths(value))
      context.addIssue({ code: "custom", path, message: PROTOTYPE_KEY_MESSAGE, input: value });
    return value;
  }, schema);
}
