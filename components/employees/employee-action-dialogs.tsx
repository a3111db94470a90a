"use client";

import type { ReactNode } from "react";
import type { EmployeeAction } from "@/components/employees/available-actions";
import { ChangeRoleForm } from "@/components/employees/change-role-form";
import { ROLE_LABELS } from "@/components/employees/roles";
import { employeesQueryKey, type Employee } from "@/components/employees/use-employees";
import { CodeConfirmDialog, DialogFor } from "@/components/step-up-form";
import { api } from "@/lib/client/api";
import { deactivateEmployeeEndpoint, resetTwoFactorEndpoint } from "@/lib/employees/endpoints";

/** Which action's dialog is open, and for whom. */
export type OpenAction = { action: EmployeeAction; employee: Employee };

type Confirmation = {
  endpoint: typeof deactivateEmployeeEndpoint | typeof resetTwoFactorEndpoint;
  title: string;
  confirmLabel: string;
  pendingLabel: string;
  /** What the action does to them, asked before it. */
  question: (employee: Employee) => ReactNode;
  /** What happened, for the page's notice. */
  done: (employee: Employee) => string;
};

/** The actions that take only an authenticator code: DELETE /v1/employees/{id} and DELETE /v1/employees/{id}/totp. */
const confirmations: Record<Exclude<EmployeeAction, "change-role">, Confirmation> = {
  deactivate: {
    endpoint: deactivateEmployeeEndpoint,
    title: "Deactivate employee",
    confirmLabel: "Deactivate",
    pendingLabel: "Deactivating…",
    question: (employee) => (
      <>
        Deactivate <strong>{employee.name}</strong> ({employee.email})? Every session of theirs ends at once and they can no longer sign in
        {employee.status === "invited" ? "; the invitation link you sent them stops working" : ""}. Their name stays in the list and the audit log. This
        cannot be undone.
      </>
    ),
    done: (employee) => `${employee.name} is deactivated: their sessions have ended and they can no longer sign in.`,
  },
  // For a lost authenticator.
  "reset-two-factor": {
    endpoint: resetTwoFactorEndpoint,
    title: "Reset two-factor authentication",
    confirmLabel: "Reset 2FA",
    pendingLabel: "Resetting…",
    question: (employee) => (
      <>
        Turn off two-factor authentication for <strong>{employee.name}</strong> ({employee.email})? Their authenticator and recovery codes stop working
        and every session of theirs ends. They sign in with their password alone and set up two-factor authentication again. Do this only when you are
        sure it is them asking, for example after a lost phone.
      </>
    ),
    done: (employee) => `Two-factor authentication of ${employee.name} is off. They set it up again after signing in with their password.`,
  },
};

/** The dialogs of the employee actions; `onDone` gets a sentence saying what happened. */
export function EmployeeActionDialogs({ open, onClose, onDone }: { open: OpenAction | null; onClose: () => void; onDone: (notice: string) => void }) {
  const target = (action: EmployeeAction) => (open?.action === action ? open.employee : null);
  return (
    <>
      <DialogFor subject={target("change-role")} onClose={onClose} title="Change role">
        {(employee) => <ChangeRoleForm employee={employee} onCancel={onClose} onDone={(changed) => onDone(`${changed.name} is now ${ROLE_LABELS[changed.role]}.`)} />}
      </DialogFor>
      {(["deactivate", "reset-two-factor"] as const).map((action) => {
        const { endpoint, question, done, ...labels } = confirmations[action];
        return (
          <CodeConfirmDialog
            key={action}
            subject={target(action)}
            {...labels}
            danger
            onConfirm={(employee, code) => api(endpoint, { params: { id: employee.id }, totpCode: code })}
            invalidates={[employeesQueryKey]}
            onClose={onClose}
            onDone={(employee) => onDone(done(employee))}
          >
            {question}
          </CodeConfirmDialog>
        );
      })}
    </>
  );
}
