"use client";

import { useApiQuery } from "@/lib/client/queries";
import { queryKey } from "@/lib/client/query-keys";
import { getEmployeeEndpoint, inviteEmployeeEndpoint, listEmployeesEndpoint } from "@/lib/employees/endpoints";
import type { ResponseOf } from "@/lib/contract/endpoint";

export type Employee = ResponseOf<typeof getEmployeeEndpoint>;
export type InvitedEmployee = ResponseOf<typeof inviteEmployeeEndpoint>;

/** Refreshes the employee list and every employee's page. */
export const employeesQueryKey = queryKey(listEmployeesEndpoint);

/** The platform's employees, oldest first (GET /v1/employees answers a plain array). */
export function useEmployees(settings: { enabled?: boolean } = {}) {
  return useApiQuery(listEmployeesEndpoint, settings);
}

export function useEmployee(id: string) {
  return useApiQuery(getEmployeeEndpoint, { params: { id } });
}
