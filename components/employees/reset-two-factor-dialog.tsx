"use client";

import { employeesQueryKey, type Employee } from "@/components/employees/use-employees";
import { CodeConfirmDialog } from "@/components/step-up-form";
import { api } from "@/lib/client/api";

/** Asks before turning off someone else's 2FA (DELETE /v1/employees/{id}/totp), for a lost authenticator. */
export function ResetTwoFactorDialog({ employee, onClose, onDone }: { employee: Employee | null; onClose: () => void; onDone: (employee: Employee) => void }) {
  return (
    <CodeConfirmDialog
      open={employee !== null}
      title="Reset two-factor authentication"
      confirmLabel="Reset 2FA"
      pendingLabel="Resetting…"
      danger
      onConfirm={(code) => api<Employee>(`/v1/employees/${encodeURIComponent(employee!.id)}/totp`, { method: "DELETE", totpCode: code })}
      invalidates={[employeesQueryKey]}
      onClose={onClose}
      onDone={onDone}
    >
      {employee && (
        <>
          Turn off two-factor authentication for <strong>{employee.name}</strong> ({employee.email})? Their authenticator and recovery codes stop
          working and every session of theirs ends. They sign in with their password alone and set up two-factor authentication again. Do this only
          when you are sure it is them asking, for example after a lost phone.
        </>
      )}
    </CodeConfirmDialog>
  );
}
