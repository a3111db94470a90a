"use client";

import type { EmployeeAction } from "@/components/employees/available-actions";
import { ChangeRoleForm } from "@/components/employees/change-role-form";
import { DeactivateEmployeeForm } from "@/components/employees/deactivate-employee-form";
import { NewLinkDialog } from "@/components/employees/new-link-dialog";
import { ROLE_LABELS } from "@/components/employees/roles";
import { employeesQueryKey, type Employee } from "@/components/employees/use-employees";
import { CodeConfirmDialog, DialogFor } from "@/components/step-up-form";
import { api } from "@/lib/client/api";
import { resetTwoFactorEndpoint } from "@/lib/employees/endpoints";

/** Which action's dialog is open, and for whom. */
export type OpenAction = { action: EmployeeAction; employee: Employee };

/** The dialogs of the employee actions; `onDone` gets a sentence saying what happened. */
export function EmployeeActionDialogs({
  open,
  onClose,
  onDone,
}: {
  open: OpenAction | null;
  onClose: () => void;
  onDone: (notice: string) => void;
}) {
  const target = (action: EmployeeAction) => (open?.action === action ? open.employee : null);
  return (
    <>
      <DialogFor subject={target("change-role")} onClose={onClose} title="Change role">
        {(employee) => (
          <ChangeRoleForm
            employee={employee}
            onCancel={onClose}
            onDone={(changed) => onDone(`${changed.name} is now ${ROLE_LABELS[changed.role]}.`)}
          />
        )}
      </DialogFor>
      {/* One-time links, shown once: a lost or expired invitation, a forgotten password. */}
      <NewLinkDialog kind="invitation" employee={target("new-invitation")} onClose={onClose} onDone={onDone} />
      <NewLinkDialog kind="password-reset" employee={target("password-reset")} onClose={onClose} onDone={onDone} />
      {/* Deactivating lists what they created first, with "also revoke" ticked. */}
      <DialogFor subject={target("deactivate")} onClose={onClose} title="Deactivate employee">
        {(employee) => <DeactivateEmployeeForm employee={employee} onCancel={onClose} onDone={onDone} />}
      </DialogFor>
      {/* For a lost authenticator. */}
      <CodeConfirmDialog
        subject={target("reset-two-factor")}
        title="Reset two-factor authentication"
        confirmLabel="Reset 2FA"
        pendingLabel="Resetting…"
        danger
        onConfirm={(employee, code) => api(resetTwoFactorEndpoint, { params: { id: employee.id }, totpCode: code })}
        invalidates={[employeesQueryKey]}
        onClose={onClose}
        onDone={(employee) =>
          onDone(
            `Two-factor authentication of ${employee.name} is off. They set it up again after signing in with their password.`,
          )
        }
      >
        {(employee) => (
          <>
            Turn off two-factor authentication for <strong>{employee.name}</strong> ({employee.email})? Their
            authenticator and recovery codes stop working and every session of theirs ends. They sign in with their
            password alone and set up two-factor authentication again. Do this only when you are sure it is them asking,
            for example after a lost phone.
          </>
        )}
      </CodeConfirmDialog>
    </>
  );
}
