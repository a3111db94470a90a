"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { z } from "zod";
import { employeesQueryKey, type Employee } from "@/components/employees/use-employees";
import type { apiKeyCreatedSchema, apiKeySchema } from "@/lib/api-keys/schemas";
import { api } from "@/lib/client/api";

export type ApiKey = z.infer<typeof apiKeySchema>;
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;
export type ApiKeyStatus = "active" | "revoked" | "expired";

export const apiKeysQueryKey = ["api-keys"] as const;

/** The account's keys, newest first (GET /v1/api_keys answers a plain array). */
export function useApiKeys() {
  return useQuery({ queryKey: apiKeysQueryKey, queryFn: () => api<ApiKey[]>("/v1/api_keys") });
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
  const employees = useQuery({ queryKey: employeesQueryKey, queryFn: () => api<Employee[]>("/v1/employees"), enabled });
  return useMemo(() => (employees.data ? new Map(employees.data.map((employee) => [employee.id, employee.name])) : undefined), [employees.data]);
}
