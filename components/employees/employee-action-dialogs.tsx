"use client";

import type { EmployeeAction } from "@/components/employees/available-actions";
import { ChangeRoleDialog } from "@/components/employees/change-role-dialog";
import { DeactivateEmployeeDialog } from "@/components/employees/deactivate-employee-dialog";
import { ResetTwoFactorDialog } from "@/components/employees/reset-two-factor-dialog";
import { ROLE_LABELS } from "@/components/employees/roles";
import type { Employee } from "@/components/employees/use-employees";

/** Which action's dialog is open, and for whom. */
export type OpenAction = { action: EmployeeAction; employee: Employee } | null;

/** The dialogs of the employee actions; `onDone` gets a sentence saying what happened. */
export function EmployeeActionDialogs({ open, onClose, onDone }: { open: OpenAction; onClose: () => void; onDone: (notice: string) => void }) {
  const target = (action: EmployeeAction) => (open?.action === action ? open.employee : null);
  return (
    <>
      <ChangeRoleDialog
        employee={target("change-role")}
        onClose={onClose}
        onDone={(employee) => onDone(`${employee.name} is now ${ROLE_LABELS[employee.role]}.`)}
      />
      <DeactivateEmployeeDialog
        employee={target("deactivate")}
        onClose={onClose}
        onDone={(employee) => onDone(`${employee.name} is deactivated: their sessions have ended and they can no longer sign in.`)}
      />
      <ResetTwoFactorDialog
        employee={target("reset-two-factor")}
        onClose={onClose}
        onDone={(employee) => onDone(`Two-factor authentication of ${employee.name} is off. They set it up again after signing in with their password.`)}
      />
    </>
  );
}
