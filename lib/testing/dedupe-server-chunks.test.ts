// The post-build step that keeps one copy of each server chunk Turbopack writes several times
// (scripts/lib/dedupe-server-chunks.mjs), on a build directory laid out as Next.js 16 writes it.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { dedupeServerChunks } from "@/scripts/lib/dedupe-server-chunks.mjs";

let dist: string;
beforeEach(() => {
  dist = mkdtempSync(path.join(tmpdir(), "pcs-dedupe-"));
});
afterEach(() => rmSync(dist, { recursive: true, force: true }));

const write = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
  writeFileSync(path.join(dist, file), text);
};
const read = (file: string) => readFileSync(path.join(dist, file), "utf8");
const exists = (file: string) => existsSync(path.join(dist, file));

const shared = 'module.exports=[101,(A)=>{A.s(["db",0,1])},102,(A)=>{A.s(["z",0,2])}];';
const chunk = (name: string, body: string) =>
  write(`server/chunks/${name}`, `${body}\n\n//# sourceMappingURL=${encodeURIComponent(name)}.map`);
const entry = (chunks: string[]) =>
  `var R=require("../../../chunks/[turbopack]_runtime.js")("server/app/v1/x/route.js")\n` +
  chunks.map((name) => `R.c("server/chunks/${name}")\n`).join("") +
  "R.m(71086)\nmodule.exports=R.m(71086).exports\n";

function layOut() {
  chunk("[root-of-the-server]__0buq40wc8qsi3._.js", shared);
  chunk("[root-of-the-server]__20csftqcxq-ma._.js", shared);
  chunk("[root-of-the-server]__1ugjlt610s39e._.js", shared);
  write("server/chunks/[root-of-the-server]__1ugjlt610s39e._.js.map", "{}");
  // The same text in another directory, and a different chunk whose name ends with a duplicate's.
  write("server/chunks/ssr/[root-of-the-server]__20csftqcxq-ma._.js", shared);
  chunk("lib_[root-of-the-server]__20csftqcxq-ma._.js", 'module.exports=[103,(A)=>{A.s(["other",0,3])}];');
  write(
    "server/app/v1/a/route.js",
    entry(["[root-of-the-server]__20csftqcxq-ma._.js", "lib_[root-of-the-server]__20csftqcxq-ma._.js"]),
  );
  write("server/app/v1/b/route.js", entry(["[root-of-the-server]__1ugjlt610s39e._.js"]));
  write("server/app/v1/c/route.js", entry(["[root-of-the-server]__0buq40wc8qsi3._.js"]));
  write(
    "server/app/v1/b/route.js.nft.json",
    JSON.stringify({ version: 1, files: ["../../../../chunks/[root-of-the-server]__1ugjlt610s39e._.js"] }),
  );
}

describe("dedupeServerChunks", () => {
  it("keeps one copy of chunks identical but for their source-map comment and points every reference at it", () => {
    layOut();
    const otherEntry = read("server/app/v1/c/route.js");

    expect(dedupeServerChunks(dist)).toEqual({ removed: 2, rewritten: 3 });

    const kept = "[root-of-the-server]__0buq40wc8qsi3._.js";
    expect(exists(`server/chunks/${kept}`)).toBe(true);
    for (const removed of ["[root-of-the-server]__20csftqcxq-ma._.js", "[root-of-the-server]__1ugjlt610s39e._.js"]) {
      expect(exists(`server/chunks/${removed}`)).toBe(false);
      expect(exists(`server/chunks/${removed}.map`)).toBe(false);
    }
    expect(read("server/app/v1/a/route.js")).toBe(entry([kept, "lib_[root-of-the-server]__20csftqcxq-ma._.js"]));
    expect(read("server/app/v1/b/route.js")).toBe(entry([kept]));
    expect(read("server/app/v1/c/route.js")).toBe(otherEntry);
    expect(JSON.parse(read("server/app/v1/b/route.js.nft.json")).files).toEqual([`../../../../chunks/${kept}`]);
    // Left alone: the chunk whose name merely ends with a removed one's, and the copy in another directory.
    expect(exists("server/chunks/lib_[root-of-the-server]__20csftqcxq-ma._.js")).toBe(true);
    expect(read("server/chunks/ssr/[root-of-the-server]__20csftqcxq-ma._.js")).toBe(shared);
  });

  it("stops the build, removing nothing, when a file names a copy in a way the rewrite does not know", () => {
    layOut();
    // As a later Turbopack might write a reference: in single quotes.
    write("server/app/v1/d/route.js", `R.c('server/chunks/[root-of-the-server]__20csftqcxq-ma._.js')\n`);
    expect(() => dedupeServerChunks(dist)).toThrow(/still names \[root-of-the-server\]__20csftqcxq-ma\._\.js/);
    expect(exists("server/chunks/[root-of-the-server]__20csftqcxq-ma._.js")).toBe(true);
    expect(exists("server/chunks/[root-of-the-server]__1ugjlt610s39e._.js")).toBe(true);
  });

  it("finds nothing to do on a second run, or in a build without duplicates", () => {
    layOut();
    dedupeServerChunks(dist);
    const entries = ["a", "b", "c"].map((name) => read(`server/app/v1/${name}/route.js`));

    expect(dedupeServerChunks(dist)).toEqual({ removed: 0, rewritten: 0 });
    expect(["a", "b", "c"].map((name) => read(`server/app/v1/${name}/route.js`))).toEqual(entries);
  });

  it("keeps chunks that differ anywhere but in the closing source-map comment", () => {
    chunk("one._.js", shared);
    chunk("two._.js", shared.replace("102", "104"));
    write("server/app/v1/a/route.js", entry(["one._.js", "two._.js"]));

    expect(dedupeServerChunks(dist)).toEqual({ removed: 0, rewritten: 0 });
    expect(exists("server/chunks/one._.js") && exists("server/chunks/two._.js")).toBe(true);
  });
});
