import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The layers of lib/: the request runtime (lib/http) sits above the domains and the contract, and
// nothing below it reaches up. Domain code throws DomainError (lib/errors.ts) and reads the contract's
// schemas from lib/contract; lib/http maps the one to status codes and serves the other.
// Allowed to import lib/http: lib/http itself, lib/testing (the harness calls route handlers), and
// test files (an integration test may go through the HTTP layer). lib/generated is Prisma's output.

const root = path.resolve(import.meta.dirname, "..");
const lib = path.join(root, "lib");
const allowed = ["lib/http/", "lib/testing/", "lib/generated/"];
const sourceFile = /\.(ts|tsx|mts|mjs)$/;
const testFile = /\.test\.(ts|tsx|mts)$/;

/** Every module specifier a file names: static and re-exporting imports, side-effect imports, import() and require(). */
function importsOf(source: string): string[] {
  const specifiers: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*["']([^"']+)["']/gm,
    /^\s*import\s*["']([^"']+)["']/gm,
    /\bimport\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) specifiers.push(match[1]!);
  return specifiers;
}

/** The repository path a specifier names ("lib/http/route"), or null for a package. */
function targetOf(specifier: string, file: string): string | null {
  if (specifier.startsWith("@/")) return specifier.slice(2);
  if (specifier.startsWith("."))
    return path
      .relative(root, path.resolve(path.dirname(file), specifier))
      .split(path.sep)
      .join("/");
  return null;
}

function httpImportsBelowHttp(): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(lib, { recursive: true, encoding: "utf8" })) {
    const relative = `lib/${entry.split(path.sep).join("/")}`;
    if (!sourceFile.test(relative) || testFile.test(relative)) continue;
    if (allowed.some((prefix) => relative.startsWith(prefix))) continue;
    const file = path.join(root, relative);
    for (const specifier of importsOf(readFileSync(file, "utf8"))) {
      const target = targetOf(specifier, file);
      if (target === "lib/http" || target?.startsWith("lib/http/")) found.push(`${relative} imports ${specifier}`);
    }
  }
  return found;
}

describe("layers", () => {
  it("reads every kind of import", () => {
    const source = [
      'import { a } from "@/lib/http/api-error";',
      "import type { B } from '@/lib/http/route';",
      'import {\n  c,\n  d,\n} from "../http/text";',
      'export { e } from "@/lib/http/edge.mjs";',
      'import "@/lib/http/side-effect";',
      'const f = await import("@/lib/http/client-ip");',
      "// a comment naming lib/http/route.ts is no import",
    ].join("\n");
    expect(importsOf(source)).toEqual([
      "@/lib/http/api-error",
      "@/lib/http/route",
      "../http/text",
      "@/lib/http/edge.mjs",
      "@/lib/http/side-effect",
      "@/lib/http/client-ip",
    ]);
  });

  it("nothing in lib outside lib/http and lib/testing imports lib/http (domains throw DomainError; the contract lives in lib/contract)", () => {
    expect(httpImportsBelowHttp()).toEqual([]);
  });
});
