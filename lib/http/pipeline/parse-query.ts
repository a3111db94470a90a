import { validationError } from "@/lib/http/api-error";
import type { RequestState } from "@/lib/http/pipeline/request-state";
import { validate } from "@/lib/http/pipeline/validate";
import { prototypeKeyIssues } from "@/lib/contract/text";

/** The query string, through the endpoint's schema: checked once the caller is known, so a stranger gets a 401 whatever the query. */
export function parseQuery(state: RequestState): void {
  const { definition, request } = state;
  // Next.js hands route handlers a NextRequest whose URL it already parsed.
  const searchParams = (request as { nextUrl?: URL }).nextUrl?.searchParams ?? new URL(request.url).searchParams;
  // A repeated parameter (`status=a&status=b`) arrives as a list: a schema that takes several values
  // accepts it, one that takes a single value refuses it (422) rather than silently keeping one.
  // (Object.fromEntries, not assignment: a `__proto__` key must stay a key, for the check below.)
  const rawQuery: Record<string, string | string[]> = Object.fromEntries(
    [...new Set(searchParams.keys())].map((name) => {
      const values = searchParams.getAll(name);
      return [name, values.length > 1 ? values : (values[0] ?? "")];
    }),
  );
  const queryPrototypeKeys = prototypeKeyIssues(rawQuery);
  if (queryPrototypeKeys.length) throw validationError(queryPrototypeKeys, "query");
  state.query = validate(definition.query, rawQuery, "query");
}
