import { openApiEndpoint } from "@/lib/endpoints";
import { methods, route } from "@/lib/http/route";
import { buildOpenApi } from "@/lib/openapi";

export const dynamic = "force-dynamic";

let cached: Record<string, unknown> | undefined;

// GET: the OpenAPI 3.1 document of every route, generated from the zod schemas.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(openApiEndpoint, async () => (cached ??= buildOpenApi())),
});
