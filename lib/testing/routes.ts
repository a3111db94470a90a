import path from "node:path";
import { allEndpoints } from "@/lib/endpoints";
import type { Endpoint, Handler } from "@/lib/http/route";

const appDir = path.resolve(import.meta.dirname, "../../app");

/** The route handler serving an endpoint: app/<path with {param} as [param]>/route.ts, its method export. */
export async function handlerFor(endpoint: Endpoint): Promise<Handler> {
  const folder = endpoint.path.replace(/\{([^}]+)\}/g, "[$1]");
  const module = (await import(path.join(appDir, folder, "route.ts"))) as Record<string, Handler>;
  const handler = module[endpoint.method];
  if (!handler?.endpoint) throw new Error(`${endpoint.method} ${endpoint.path} has no wrapped handler in ${folder}/route.ts`);
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
