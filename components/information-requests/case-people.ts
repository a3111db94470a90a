"use client";

import { useMemo } from "react";
import { useEmployees } from "@/components/employees/use-employees";
import { useCan, useMe } from "@/components/me";
import { ROLE_PERMISSIONS } from "@/lib/auth/permissions";
import type { CaseDetail, TimelineEntry } from "./detail-hooks";

export type Person = { id: string; name: string };

/**
 * Who may be given a request (active employees whose role may decide requests, the API's own rule)
 * and every name the page knows, by id. Without `employees:read` (compliance staff) the list is only
 * the reader, and names come from the request and its timeline.
 */
export function useCasePeople(request: CaseDetail, timeline: readonly TimelineEntry[] | undefined) {
  const me = useMe();
  const can = useCan();
  const canList = can("employees:read");
  const employees = useEmployees({ enabled: canList });
  return useMemo(() => {
    const names = new Map<string, string>();
    for (const entry of timeline ?? [])
      if (entry.actor.type === "employee" && entry.actor.id && entry.actor.name)
        names.set(entry.actor.id, entry.actor.name);
    for (const person of [request.reviewer, request.decidedBy]) if (person) names.set(person.id, person.name);
    for (const employee of employees.data ?? []) names.set(employee.id, employee.name);
    names.set(me.id, me.name);
    const eligible: Person[] = employees.data
      ? employees.data
          .filter(
            ({ status, role }) => status === "active" && ROLE_PERMISSIONS[role].includes("information_requests:write"),
          )
          .map(({ id, name }) => ({ id, name }))
      : [{ id: me.id, name: me.name }];
    return {
      eligible,
      /** Whether the reader's role may list employees (otherwise the list is only the reader). */
      canList,
      nameOf: (id: string) => names.get(id) ?? null,
    };
  }, [canList, employees.data, me.id, me.name, request.reviewer, request.decidedBy, timeline]);
}
