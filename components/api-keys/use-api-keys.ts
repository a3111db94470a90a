"use client";

import { useMemo } from "react";
import { useEmployees } from "@/components/employees/use-employees";
import { issueApiKeyEndpoint, listApiKeysEndpoint } from "@/lib/api-keys/endpoints";
import { useApiQuery } from "@/lib/client/queries";
import { queryKey } from "@/lib/client/query-keys";
import type { ResponseOf } from "@/lib/contract/endpoint";

export type ApiKey = ResponseOf<typeof listApiKeysEndpoint>[number];
export type ApiKeyCreated = ResponseOf<typeof issueApiKeyEndpoint>;
export type ApiKeyStatus = "active" | "revoked" | "expired";

export const apiKeysQueryKey = queryKey(listApiKeysEndpoint);

/** The account's keys, newest first (GET /v1/api_keys answers a plain array). */
export function useApiKeys() {
  return useApiQuery(listApiKeysEndpoint);
}

export function statusOf(key: ApiKey, now = Date.now()): ApiKeyStatus {
  if (key.revokedAt) return "revoked";
  return new Date(key.expiresAt).getTime() <= now ? "expired" : "active";
}

/** How people recognise a key: its name, else its prefix. */
export const labelOf = (key: Pick<ApiKey, "name" | "prefix">) => key.name ?? `${key.prefix}…`;

/**
 * Employee names by id, for "created by". GET /v1/employees needs employees:read; without it
 * (`enabled` false) there are no names and the list says "an employee".
 */
export function useEmployeeNames(enabled: boolean): ReadonlyMap<string, string> | undefined {
  const employees = useEmployees({ enabled });
  return useMemo(
    () => (employees.data ? new Map(employees.data.map((employee) => [employee.id, employee.name])) : undefined),
    [employees.data],
  );
}
