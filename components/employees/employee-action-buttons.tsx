"use client";

import type { ReactNode } from "react";
import { availableActions, type EmployeeAction } from "@/components/employees/available-actions";
import type { Employee } from "@/components/employees/use-employees";
import { useCan, useMe } from "@/components/me";

/** The visible label, and the accessible name that says whom the button acts on. */
const labels: Record<EmployeeAction, { text: string; name: (person: string) => string }> = {
  "change-role": { text: "Change role", name: (person) => `Change role of ${person}` },
  "new-invitation": { text: "New invitation link", name: (person) => `New invitation link for ${person}` },
  "password-reset": {
    text: "Create password reset link",
    name: (person) => `Create password reset link for ${person}`,
  },
  deactivate: { text: "Deactivate", name: (person) => `Deactivate ${person}` },
  "reset-two-factor": { text: "Reset 2FA", name: (person) => `Reset 2FA of ${person}` },
};

/** The actions the signed-in employee may take on `employee`, as buttons; `fallback` when there are none. */
export function EmployeeActionButtons({
  employee,
  onOpen,
  fallback = null,
}: {
  employee: Employee;
  onOpen: (action: EmployeeAction) => void;
  fallback?: ReactNode;
}) {
  const me = useMe();
  const can = useCan();
  const actions = availableActions({ meId: me.id, employee, can });
  if (actions.length === 0) return fallback;
  return (
    <div className="employee-actions">
      {actions.map((action) => (
        <button
          key={action}
          type="button"
          aria-label={labels[action].name(employee.name)}
          onClick={() => onOpen(action)}
        >
          {labels[action].text}
        </button>
      ))}
    </div>
  );
}
