import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Other packages are used through their public doors only: a speed-up that exists only through another
// package's private files, fields or formats breaks silently when that package changes (a revoked key
// that works again, statements sent on a connection the pool gave to someone else). This walk reads the
// project's own code, tests and scripts included, and fails on:
// - an import of `next/dist/...` (Next.js's private modules);
// - `Reflect.get` or `Reflect.set` of a member named in the code (reading a field the types do not show),
//   and an assignment to a member of another package's object through a cast (`(x as {...}).m = ...`);
// - opening SQLite's `-shm` or `-wal` files (their format is SQLite's own business);
// - `EXPLAIN` run to learn a statement's plan at run time (sqlite.org: applications should not use it).

const root = path.resolve(import.meta.dirname, "../..");
const OWN_CODE = ["app", "lib", "components", "scripts", "e2e", "server.mjs", "instrumentation.ts", "proxy.dev.ts"];
const NOT_OWN = /^lib\/generated\//;

const REACHES_IN: [string, RegExp][] = [
  ["an import of Next.js's private modules", /["']next\/dist\//],
  ["Reflect.get or Reflect.set of a named member", /\bReflect\.(get|set)\([^,()]+,\s*["'`]/],
  ["an assignment to a member through a cast", /\(\s*[\w.]+\s+as\s+\{[^}]*\}\s*\)\.\w+\s*=[^=]/],
  ["a read of SQLite's -shm or -wal file", /(open|read)\w*\([^)]*["'`][^"'`]*-(shm|wal)["'`]/],
  ["EXPLAIN run to read a statement's plan", /prepare\(\s*`EXPLAIN /],
];

function ownFiles(): string[] {
  const files: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = path.posix.join(relative, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (/\.(ts|tsx|mjs|js)$/.test(entry.name)) files.push(child);
    }
  };
  for (const entry of OWN_CODE) {
    if (/\.\w+$/.test(entry)) files.push(entry);
    else walk(entry);
  }
  return files.filter((file) => !NOT_OWN.test(file) && file !== "lib/testing/internals-walk.test.ts").sort();
}

const reachesIn = (source: string) => REACHES_IN.filter(([, pattern]) => pattern.test(source)).map(([name]) => name);

describe("the walk for reaches into other packages' internals", () => {
  it("knows each kind when it sees it, and not a public use of the same names", () => {
    expect(reachesIn(`createRequire(import.meta.url)("next/dist/server/pipe-readable")`)).toEqual([
      "an import of Next.js's private modules",
    ]);
    expect(reachesIn(`const client = Reflect.get(adapter, "client");`)).toEqual([
      "Reflect.get or Reflect.set of a named member",
    ]);
    expect(reachesIn(`(client as { prepare: unknown }).prepare = (sql) => sql;`)).toEqual([
      "an assignment to a member through a cast",
    ]);
    expect(reachesIn('openSync(`${file}-shm`, "r")')).toEqual(["a read of SQLite's -shm or -wal file"]);
    expect(reachesIn("connection.prepare(`EXPLAIN ${sql}`)")).toEqual(["EXPLAIN run to read a statement's plan"]);
    // A proxy forwarding whatever member is asked for, a comparison, a plain import: none reaches in.
    expect(reachesIn("get: (target, property) => Reflect.get(target, property)")).toEqual([]);
    expect(reachesIn(`if ((x as { y: number }).y === 1) {}`)).toEqual([]);
    expect(reachesIn(`import { NextResponse } from "next/server";`)).toEqual([]);
  });

  it("finds none in the project's code", () => {
    const found = ownFiles().flatMap((file) => {
      const kinds = reachesIn(readFileSync(path.join(root, file), "utf8"));
      return kinds.length ? [`${file}: ${kinds.join(", ")}`] : [];
    });
    expect(found, "use the package's public interface instead").toEqual([]);
  });
});
