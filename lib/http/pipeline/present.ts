import type { Endpoint } from "@/lib/contract/endpoint";
import { successStatusOf, type Presented, type RequestState } from "@/lib/http/pipeline/request-state";
import { isImmutable } from "@/lib/immutable";

/** The handler's result as it goes out: through the response schema, which drops anything not in it, and as JSON text. */
export function present(state: RequestState): void {
  const { definition, result } = state;
  if (definition.produces) {
    state.presented = { output: null, text: null, response: ownResponse(definition, result) };
    return;
  }
  const answers = isImmutable(result) ? answersOf(definition) : null;
  let presented = answers?.get(result as object);
  if (!presented) {
    presented = toPresented(definition, result);
    answers?.set(result as object, presented);
  }
  state.presented = presented;
}

/** A `produces` route's answer: the handler's Response, on a read only (nothing to keep for Idempotency-Key). */
function ownResponse(definition: Endpoint, result: unknown): Response {
  if (definition.method !== "GET" || !(result instanceof Response)) {
    throw new Error(
      `${definition.method} ${definition.path} declares produces: a GET whose handler returns a Response`,
    );
  }
  return result;
}

function toPresented(definition: Endpoint, result: unknown): Presented {
  const plain = result === undefined ? null : toWire(result);
  let output = plain;
  if (definition.response) {
    const checked = definition.response.safeParse(plain);
    // An answer that does not fit its own schema is the service's bug (500), never the caller's (422).
    if (!checked.success)
      throw new Error(
        `${definition.method} ${definition.path} answered outside its response schema: ${checked.error.message}`,
      );
    output = checked.data;
  }
  return { output, text: successStatusOf(definition) === 204 ? null : JSON.stringify(output) };
}

/** The answers of immutable results (lib/immutable.ts), per route, kept for as long as the result object lives: the same rows give the same JSON. */
const answersByRoute = new WeakMap<Endpoint, WeakMap<object, Presented>>();

function answersOf(definition: Endpoint): WeakMap<object, Presented> {
  let answers = answersByRoute.get(definition);
  if (!answers) answersByRoute.set(definition, (answers = new WeakMap()));
  return answers;
}

/**
 * A handler's result as JSON will carry it: Dates as the ISO strings the response schemas describe,
 * undefined properties gone. What JSON.stringify then JSON.parse would give, without the round trip.
 */
function toWire(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : toWire(item)));
  const plain: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined && typeof item !== "function") plain[key] = toWire(item);
  }
  return plain;
}
