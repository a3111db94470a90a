import * as apiKeys from "@/lib/api-keys/endpoints";
import * as employees from "@/lib/employees/endpoints";
import { endpoint, type Endpoint } from "@/lib/http/route";

export const openApiEndpoint = endpoint({
  method: "GET",
  path: "/v1/openapi.json",
  tag: "Meta",
  summary: "This API's OpenAPI 3.1 document",
  auth: "public",
  errors: [],
});

/** Every /v1 endpoint; the OpenAPI document is generated from this list, and a test checks each route file is in it. */
export const allEndpoints: Endpoint[] = [...Object.values(employees), ...Object.values(apiKeys), openApiEndpoint];
