"use client";

import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "@/lib/client/api";
import type { employeeSchema, invitedEmployeeSchema } from "@/lib/employees/schemas";

export type Employee = z.infer<typeof employeeSchema>;
export type InvitedEmployee = z.infer<typeof invitedEmployeeSchema>;

export const employeesQueryKey = ["employees"] as const;

/** The platform's employees, oldest first (GET /v1/employees answers a plain array). */
export function useEmployees() {
  return useQuery({ queryKey: employeesQueryKey, queryFn: () => api<Employee[]>("/v1/employees") });
}

export function useEmployee(id: string) {
  return useQuery({ queryKey: [...employeesQueryKey, id], queryFn: () => api<Employee>(`/v1/employees/${encodeURIComponent(id)}`) });
}
