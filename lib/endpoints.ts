import * as accounts from "@/lib/accounts/endpoints";
import * as apiKeys from "@/lib/api-keys/endpoints";
import * as audit from "@/lib/audit/endpoints";
import * as delegatedUsers from "@/lib/delegated-users/endpoints";
import * as employees from "@/lib/employees/endpoints";
import * as csvExports from "@/lib/exports/endpoints";
import * as informationRequests from "@/lib/information-requests/endpoints";
import * as informationRequestEvidence from "@/lib/information-requests/evidence-endpoints";
import * as kyc from "@/lib/kyc/endpoints";
import * as passkeys from "@/lib/passkeys/endpoints";
import * as recipients from "@/lib/recipients/endpoints";
import * as settings from "@/lib/settings/endpoints";
import * as sso from "@/lib/sso/endpoints";
import * as transactions from "@/lib/transactions/endpoints";
import * as transfers from "@/lib/transfers/endpoints";
import * as virtualAccounts from "@/lib/virtual-accounts/endpoints";
import * as webhooks from "@/lib/webhooks/endpoints";
import { endpoint, type Endpoint } from "@/lib/contract/endpoint";

export const openApiEndpoint = endpoint({
  method: "GET",
  path: "/v1/openapi.json",
  tag: "Meta",
  summary: "This API's OpenAPI 3.1 document",
  auth: "public",
  permission: null,
  errors: [],
});

const modules: Record<string, unknown>[] = [
  employees,
  passkeys,
  apiKeys,
  accounts,
  delegatedUsers,
  transactions,
  virtualAccounts,
  recipients,
  transfers,
  informationRequests,
  informationRequestEvidence,
  kyc,
  audit,
  csvExports,
  settings,
  sso,
  webhooks,
];

const isEndpoint = (value: unknown): value is Endpoint =>
  typeof value === "object" && value !== null && "method" in value && "path" in value && "auth" in value;

/** Every /v1 endpoint; the OpenAPI document is generated from this list, and a test checks each route file is in it. */
export const allEndpoints: Endpoint[] = [
  ...modules.flatMap((module) => Object.values(module).filter(isEndpoint)),
  openApiEndpoint,
];
