import { z } from "zod";
import { DEFAULT_KEY_PERMISSIONS, ROLE_DESCRIPTIONS, ROLE_PERMISSIONS, ROLES } from "@/lib/auth/permissions";
import { allEndpoints } from "@/lib/endpoints";
import { errorStatus } from "@/lib/contract/error-codes";
import { pageQuerySchema } from "@/lib/contract/pagination";
import type { Endpoint } from "@/lib/contract/endpoint";

type JsonSchema = Record<string, unknown>;

const errorSchema = z
  .object({
    error_code: z.enum(Object.keys(errorStatus) as [keyof typeof errorStatus, ...(keyof typeof errorStatus)[]]),
    message: z.string(),
    http_code: z.number().int(),
    details: z.record(z.string(), z.string()).optional().meta({ description: "Field path to message, for 422." }),
    request_id: z.string().meta({
      description:
        "The server's own id of the request (`req_...`), as its log and audit trail name it: quote it when reporting a problem. " +
        "The X-Request-Id header carries it too, unless the client sent an id of its own, which the header echoes.",
    }),
  })
  .meta({ id: "Error" });

const statusText: Record<number, string> = {
  400: "Bad request, or a missing/invalid Service-Totp-Code (`err_otp_required`, `err_otp_invalid`)",
  401: "No credential, or an unknown, revoked or expired key or session",
  403:
    "Caller's IP outside the key's allowlist (`err_ip_not_allowed`), cross-site request, a permission the caller lacks " +
    "(`err_forbidden`, `details.permission` names it), 2FA required by the platform (`err_two_factor_required`), or a " +
    "wrong current password (`err_password_incorrect`), or password sign-in where the platform enforces single " +
    "sign-on (`err_sso_required`)",
  404: "Unknown route or object, or one of another account",
  405: "Known route, wrong method",
  409:
    "Conflict with the current state, a request with the same Idempotency-Key still running, or a repeat of one whose " +
    "response held a secret shown once (`err_idempotency_secret`)",
  413: "The file is larger than the route takes (`err_payload_too_large`), refused as soon as that is known",
  415: "The body is not in the media type the route takes (`err_unsupported_media_type`)",
  422: "Validation failed; `details` names each field (or `err_idempotency_mismatch`: the Idempotency-Key was used for a different request)",
  429:
    "Too many attempts, or past the API key's rate limit (`err_rate_limited`, with `Retry-After`; every answer to a key " +
    "carries `RateLimit-Policy` and `RateLimit`)",
  500: "Internal error (no internals in the body)",
};

/** The spec's own endpoints; every other route is an extension (docs/api.md, Extensions and the sandbox). */
const specEndpoints = new Set([
  "GET /v1/accounts",
  "GET /v1/accounts/paginate",
  "POST /v1/accounts/{accountId}",
  "GET /v1/feature_flags",
  "POST /v1/feature_flags",
  "GET /v1/api_keys",
  "POST /v1/api_keys",
  "POST /v1/api_keys/{key}",
  "DELETE /v1/api_keys/{key}",
  "GET /v1/delegated_users",
  "POST /v1/delegated_users",
  "GET /v1/delegated_users/{id}",
  "GET /v1/employees",
  "POST /v1/employees",
  "GET /v1/employees/{id}",
  "POST /v1/employees/totp",
  "POST /v1/employees/totp/confirm",
  "GET /v1/transactions",
  "DELETE /v1/virtual_accounts/{idOrKey}",
  "DELETE /v1/recipients/{id}",
  "GET /v1/information_requests",
  "GET /v1/information_requests/{id}",
  "GET /v1/transfers/{id}/information_requests",
  "POST /v1/kyc/submissions/{submissionId}/agreements",
  "GET /v1/kyc/submissions/{submissionId}/beneficiaries",
  "POST /v1/kyc/update_profile",
]);

export const isExtension = (endpoint: Endpoint) => !specEndpoints.has(`${endpoint.method} ${endpoint.path}`);

function errorsOf(endpoint: Endpoint): number[] {
  const codes = new Set<number>([...endpoint.errors, 500]);
  if (endpoint.auth !== "public") [401, 403].forEach((code) => codes.add(code));
  if (endpoint.auth === "public" && endpoint.method !== "GET") codes.add(403);
  if (endpoint.body) [400, 422].forEach((code) => codes.add(code));
  if (endpoint.query) [400, 422].forEach((code) => codes.add(code));
  if (endpoint.params) codes.add(404);
  if (endpoint.totp) [400, 429].forEach((code) => codes.add(code));
  // A key's rate limit (lib/auth/rate-limit.ts), wherever a key may call.
  if (endpoint.auth === "any") codes.add(429);
  // Idempotency-Key: a malformed key 400, a different request under it 422, the first still running 409.
  if (endpoint.method === "POST" && endpoint.auth !== "public") [400, 409, 422].forEach((code) => codes.add(code));
  return [...codes].sort();
}

/** The first line of an operation's description: what the caller needs. */
function accessText(endpoint: Endpoint): string | null {
  if (endpoint.auth === "public") return null;
  const parts = [
    endpoint.permission ? `Permission: \`${endpoint.permission}\`.` : "Any signed-in employee, for themselves.",
    endpoint.platformWide ? "Platform-wide: a key issued for a sub-account gets 403." : null,
    endpoint.totp ? "Step-up: from a session, needs `Service-Totp-Code`." : null,
  ];
  return parts.filter(Boolean).join(" ");
}

type SchemaRegistry = {
  /** The components the converted schemas named (meta ids), filled as schemas are converted. */
  components: Record<string, JsonSchema>;
  toSchema: (schema: z.ZodType, io: "input" | "output") => JsonSchema;
  /** Schemas with a meta id come back as a $ref to their component. */
  resolve: (schema: JsonSchema) => JsonSchema;
};

function schemaRegistry(): SchemaRegistry {
  const components: Record<string, JsonSchema> = {};
  const toSchema = (schema: z.ZodType, io: "input" | "output"): JsonSchema => {
    const json = z.toJSONSchema(schema, {
      io,
      target: "draft-2020-12",
      unrepresentable: "any",
      reused: "inline",
      override: ({ jsonSchema }) => {
        delete jsonSchema.$schema;
      },
    }) as JsonSchema;
    const { $defs, ...rest } = json as { $defs?: Record<string, JsonSchema> };
    if ($defs)
      Object.assign(components, JSON.parse(JSON.stringify($defs).replaceAll("#/$defs/", "#/components/schemas/")));
    delete (rest as { $schema?: string }).$schema;
    return JSON.parse(JSON.stringify(rest).replaceAll("#/$defs/", "#/components/schemas/"));
  };
  const resolve = (schema: JsonSchema): JsonSchema =>
    typeof schema.$ref === "string" ? (components[schema.$ref.split("/").pop()!] ?? schema) : schema;
  return { components, toSchema, resolve };
}

/** A POST by an authenticated caller takes an Idempotency-Key. */
const isIdempotent = (endpoint: Endpoint) => endpoint.method === "POST" && endpoint.auth !== "public";

/** The endpoint's path and query parameters, from its zod schemas, then the headers it reads. */
function parametersOf(endpoint: Endpoint, { toSchema, resolve }: SchemaRegistry): unknown[] {
  const parameters: unknown[] = [];
  for (const [where, schema] of [
    ["path", endpoint.params],
    ["query", endpoint.query],
  ] as const) {
    if (!schema) continue;
    const json = resolve(toSchema(schema, "input")) as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      const { description, ...schemaOnly } = property as { description?: string };
      parameters.push({
        name,
        in: where,
        required: where === "path" || (json.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: schemaOnly,
      });
    }
  }
  return [...parameters, ...headerParametersOf(endpoint)];
}

function headerParametersOf(endpoint: Endpoint): unknown[] {
  const headers: unknown[] = [];
  if (endpoint.auth !== "public") {
    headers.push({
      name: "Service-Account-Id",
      in: "header",
      required: false,
      description:
        "Act for this account of the caller's platform instead of the caller's own; an account outside the platform answers 404.",
      schema: { type: "string", pattern: "^acct_[a-z0-9]+$" },
    });
  }
  if (endpoint.totp) {
    headers.push({
      name: "Service-Totp-Code",
      in: "header",
      required: false,
      description:
        "Required from an employee session: a current 6-digit TOTP code, each usable once. Missing: 400 `err_otp_required`; wrong, stale or reused: 400 `err_otp_invalid`. Every code is counted before it is checked: at most 5 wrong codes per employee in 5 minutes are checked (sign-in and step-up share the count), however many arrive at once; the rest answer 429 `err_rate_limited` with Retry-After. API-key callers need none.",
      schema: { type: "string", pattern: "^\\d{6}$" },
    });
    headers.push({
      name: "Service-Passkey-Assertion",
      in: "header",
      required: false,
      description:
        "Instead of `Service-Totp-Code`: base64url of a passkey assertion's JSON (`PasskeyAssertion`), answering a challenge of POST /v1/step_up/passkey/options. A refused passkey (spent or expired challenge, another origin, no user verification, a counter that went backwards): 400 `err_otp_invalid`, counted with wrong codes.",
      schema: { type: "string", pattern: "^[A-Za-z0-9_-]+={0,2}$" },
    });
  }
  if (isIdempotent(endpoint)) headers.push(idempotencyKeyParameter(endpoint));
  return headers;
}

function idempotencyKeyParameter(endpoint: Endpoint) {
  return {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    description:
      "Makes a retry safe: the first response (status and body) is kept 24 hours for this credential and key. A repeat " +
      "with the same request gets it again with `Idempotent-Replayed: true`; a different request under the key answers " +
      "422 `err_idempotency_mismatch`; a repeat while the first still runs, 409 `err_conflict`. Refusals before the " +
      "operation starts (validation, authentication) and 5xx are not kept." +
      (endpoint.secretResponse
        ? " This response holds a secret shown once, so it is never kept: a repeat answers 409 `err_idempotency_secret` " +
          "(that response held a secret shown once; look the object up instead), and nothing is created twice."
        : ""),
    schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7e]+$" },
  };
}

/** One operation of the document: who may call it, its parameters, its body and its responses. */
function operationOf(endpoint: Endpoint, registry: SchemaRegistry): Record<string, unknown> {
  const { toSchema } = registry;
  const parameters = parametersOf(endpoint, registry);
  const access = accessText(endpoint);
  return {
    operationId: `${endpoint.method.toLowerCase()}${endpoint.path.replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase())}`,
    summary: endpoint.summary,
    ...(endpoint.description || access
      ? { description: [access, endpoint.description].filter(Boolean).join("\n\n") }
      : {}),
    ...(endpoint.auth !== "public" ? { "x-permission": endpoint.permission } : {}),
    ...(endpoint.platformWide ? { "x-platform-wide": true } : {}),
    tags: [endpoint.tag],
    ...(isExtension(endpoint) ? { "x-extension": true } : {}),
    security:
      endpoint.auth === "public"
        ? []
        : endpoint.auth === "session"
          ? [{ sessionCookie: [] }]
          : [{ bearerAuth: [] }, { sessionCookie: [] }],
    ...(parameters.length ? { parameters } : {}),
    ...((endpoint.body ?? endpoint.signedBody)
      ? {
          requestBody: {
            required: true,
            content: {
              [endpoint.multipart ? "multipart/form-data" : "application/json"]: {
                schema: toSchema((endpoint.body ?? endpoint.signedBody)!, "input"),
              },
            },
          },
        }
      : {}),
    responses: responsesOf(endpoint, registry),
  };
}

/** Bytes as OpenAPI 3.1 describes a file (a `produces` answer, an uploaded part). */
const BINARY = { type: "string", format: "binary" };

function responsesOf(endpoint: Endpoint, { toSchema }: SchemaRegistry): Record<string, unknown> {
  return {
    [String(endpoint.status ?? 200)]: {
      description: "Success",
      ...(isIdempotent(endpoint)
        ? {
            headers: {
              "Idempotent-Replayed": {
                description:
                  "`true` when this is the kept response of an earlier request with the same Idempotency-Key.",
                schema: { type: "string", enum: ["true"] },
              },
            },
          }
        : {}),
      ...(endpoint.produces
        ? { content: Object.fromEntries(endpoint.produces.map((type) => [type, { schema: BINARY }])) }
        : endpoint.response
          ? { content: { "application/json": { schema: toSchema(endpoint.response, "output") } } }
          : {}),
    },
    ...Object.fromEntries(
      errorsOf(endpoint).map((code) => [
        String(code),
        {
          description: statusText[code] ?? "Error",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      ]),
    ),
  };
}

/** The document's introduction: the error body, pagination, input rules, the extensions and who may do what. */
function apiDescription(): string {
  const extensions = allEndpoints.filter(isExtension).map((endpoint) => `\`${endpoint.method} ${endpoint.path}\``);
  return (
    "The /v1 API (releases 1.2 and 1.3.0) with the extensions the dashboard needs. Every error has the body " +
    "`{ error_code, message, http_code, details? }`; every response carries `X-Request-Id` (the client's own when it " +
    "sent a sane one, else the server's `req_...`; the audit trail's `requestId` and a 500's message are always the " +
    "server's own, the client's is kept as `clientRequestId`). Lists the spec " +
    "paginates take `next`, `order` (asc|desc, by creation time, default desc) and `limit` (1..100, default 20) " +
    "and answer `{ items, next }`. Unknown routes answer 404, known routes with a wrong method 405 (`err_method_not_allowed`).\n\n" +
    "Input: a body is UTF-8 JSON (bytes that are not UTF-8 answer 400 `err_bad_request`). Strings refuse control characters and " +
    "lone surrogates, and single-line ones (all but text areas such as a decision's reason) also bidirectional controls " +
    "(U+202A..U+202E, U+2066..U+2069) and U+2028/U+2029: 422 naming the character. `__proto__`, `constructor` and `prototype` " +
    "are refused as keys anywhere in a body or query (422).\n\n" +
    "Extensions (not in the spec; marked `x-extension`): " +
    extensions.join(", ") +
    ". " +
    "The `/v1/sandbox` routes exist only when the operator turns them on (`SANDBOX=on`; off by default, on for local development, the demo and the tests).\n\n" +
    "Who may do what: every operation names its permission (`x-permission`). Employees hold their role's permissions: " +
    ROLES.map(
      (role) => `\`${role}\` (${ROLE_DESCRIPTIONS[role]}): ${ROLE_PERMISSIONS[role].map((p) => `\`${p}\``).join(", ")}`,
    ).join("; ") +
    ". An API key holds the permissions it was issued with (default: " +
    DEFAULT_KEY_PERMISSIONS.map((p) => `\`${p}\``).join(", ") +
    ")."
  );
}

const securitySchemes = {
  bearerAuth: {
    type: "http",
    scheme: "bearer",
    description: "An API key (`svc_...`): `Authorization: Bearer <secret>`.",
  },
  sessionCookie: {
    type: "apiKey",
    in: "cookie",
    name: "pmc_session",
    description:
      "Employee session from POST /v1/sessions. Mutating requests must come from the service's own origin, scheme, host and port " +
      "(`Origin` and `Sec-Fetch-Site`; the origin is `APP_ORIGIN`, or the request's own): otherwise 403 `err_forbidden`.",
  },
};

/** Builds the OpenAPI 3.1 document from the zod schemas the routes validate with, so the two cannot drift. */
export function buildOpenApi(): JsonSchema {
  const registry = schemaRegistry();
  const { components, toSchema } = registry;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of allEndpoints) {
    paths[endpoint.path] ??= {};
    paths[endpoint.path]![endpoint.method.toLowerCase()] = operationOf(endpoint, registry);
  }
  toSchema(errorSchema, "output"); // registers components.Error through its meta id
  components.PageQuery = toSchema(pageQuerySchema, "input");

  return {
    openapi: "3.1.0",
    info: { title: "Platform Management and Compliance API", version: "1.3.0", description: apiDescription() },
    servers: [{ url: "/" }],
    components: { securitySchemes, schemas: components },
    paths,
  };
}
