// The route template of a request's path, for the access log and the metrics' labels: `/v1/api_keys/{key}`
// for /v1/api_keys/key_123, read from the app's own folders (app/**/page.tsx and route.ts, as Next.js
// routes them) once at start. A label is always one of a fixed set: every template, `/_next/static`, or
// `unmatched` (whatever no route serves, so a scan of random paths adds no series).
import { readdirSync } from "node:fs";
import path from "node:path";

const ROUTE_FILE = /^(page|route)\.(tsx|ts|jsx|js)$/;
/** Files Next.js serves under their own name (app/icon.svg is /icon.svg). */
const METADATA_FILE = /^(icon|apple-icon|favicon|opengraph-image|twitter-image|robots|sitemap|manifest)\.\w+$/;

/** A node of the tree of segments: fixed names, one `[param]` child, one `[...rest]` child. */
function node() {
  return { fixed: new Map(), param: null, rest: null, template: null };
}

/** The templates under `appDir` as a tree; a folder `(group)` adds no segment, `_private` and `@slot` none either. */
export function loadRouteTemplates(appDir) {
  const root = node();
  walk(appDir, root, []);
  return root;
}

function walk(dir, at, segments) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile() && ROUTE_FILE.test(entry.name)) at.template ??= `/${segments.join("/")}`;
    if (entry.isFile() && METADATA_FILE.test(entry.name)) {
      if (!at.fixed.has(entry.name)) at.fixed.set(entry.name, node());
      at.fixed.get(entry.name).template = `/${[...segments, entry.name].join("/")}`;
    }
    if (!entry.isDirectory() || entry.name.startsWith("_") || entry.name.startsWith("@")) continue;
    const name = entry.name;
    const full = path.join(dir, name);
    if (name.startsWith("(") && name.endsWith(")")) walk(full, at, segments);
    else if (name.startsWith("[...") || name.startsWith("[[...")) {
      at.rest ??= node();
      walk(full, at.rest, [...segments, `{${name.replace(/^\[+\.\.\./, "").replace(/\]+$/, "")}*}`]);
    } else if (name.startsWith("[")) {
      at.param ??= node();
      walk(full, at.param, [...segments, `{${name.slice(1, -1)}}`]);
    } else {
      if (!at.fixed.has(name)) at.fixed.set(name, node());
      walk(full, at.fixed.get(name), [...segments, name]);
    }
  }
}

/** The template that serves `pathname` (no query), Next.js's precedence: a fixed name, then a parameter, then a catch-all. */
export function routeTemplateOf(tree, pathname) {
  if (pathname.startsWith("/_next/")) return pathname.startsWith("/_next/static/") ? "/_next/static" : "/_next";
  const segments = pathname.split("/").filter(Boolean);
  return match(tree, segments, 0) ?? "unmatched";
}

function match(at, segments, index) {
  if (index === segments.length) return at.template ?? at.rest?.template ?? null;
  const fixed = at.fixed.get(segments[index]);
  const found = (fixed && match(fixed, segments, index + 1)) ?? (at.param && match(at.param, segments, index + 1));
  return found ?? at.rest?.template ?? null;
}
