import path from "node:path";
import { z } from "zod";
import { allEndpoints } from "@/lib/endpoints";
import type { Endpoint } from "@/lib/contract/endpoint";
import type { Handler } from "@/lib/http/route";

const appDir = path.resolve(import.meta.dirname, "../../app");

/** The exports of the route file serving an API path: app/<path with {param} as [param]>/route.ts. */
export async function routeModuleFor(apiPath: string): Promise<Record<string, Handler>> {
  const folder = apiPath.replace(/\{([^}]+)\}/g, "[$1]");
  return (await import(path.join(appDir, folder, "route.ts"))) as Record<string, Handler>;
}

/** The route handler serving an endpoint: its route file's method export. */
export async function handlerFor(endpoint: Endpoint): Promise<Handler> {
  const handler = (await routeModuleFor(endpoint.path))[endpoint.method];
  if (!handler?.endpoint) throw new Error(`${endpoint.method} ${endpoint.path} has no wrapped handler in its route.ts`);
  return handler;
}

/** Every endpoint with its handler, for tests that walk the whole API. */
export async function everyRoute(): Promise<{ endpoint: Endpoint; handler: Handler }[]> {
  return Promise.all(allEndpoints.map(async (endpoint) => ({ endpoint, handler: await handlerFor(endpoint) })));
}

/** Fills `{param}` placeholders to make a request path. */
export function pathFor(endpoint: Endpoint, params: Record<string, string>): string {
  return endpoint.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? "x"));
}

/** Ids of the right shape that exist nowhere: an allowed caller gets 404 from them, never 403. */
const GHOSTS = ["emp", "key", "ses", "acct", "du", "ir", "tr", "sub", "va", "rcp", "we", "evt", "doc", "pk"].map(
  (prefix) => `${prefix}_ghost0walk0000`,
);

/** Path parameters that pass the endpoint's params schema and name nothing that exists. */
export function ghostParams(endpoint: Endpoint): Record<string, string> {
  const shape = endpoint.params?.shape ?? {};
  return Object.fromEntries(
    Object.entries(shape).map(([name, schema]) => [name, GHOSTS.find((ghost) => z.safeParse(schema, ghost).success)!]),
  );
}
