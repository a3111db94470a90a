import { validationError } from "@/lib/http/api-error";
import type { RequestState } from "@/lib/http/pipeline/request-state";
import { validate } from "@/lib/http/pipeline/validate";
import { prototypeKeyIssues } from "@/lib/contract/text";

/** The query string, through the endpoint's schema: checked once the caller is known, so a stranger gets a 401 whatever the query. */
export async function parseQuery(state: RequestState): Promise<void> {
  const { definition, request } = state;
  // Next.js hands route handlers a NextRequest whose URL it already parsed.
  const searchParams = (request as { nextUrl?: URL }).nextUrl?.searchParams ?? new URL(request.url).searchParams;
  const rawQuery = Object.fromEntries(searchParams);
  const queryPrototypeKeys = prototypeKeyIssues(rawQuery);
  if (queryPrototypeKeys.length) throw validationError(queryPrototypeKeys, "query");
  state.query = validate(definition.query, rawQuery, "query");
}
