"use client";

import { employeesQueryKey, type Employee } from "@/components/employees/use-employees";
import { CodeConfirmDialog } from "@/components/step-up-form";
import { api } from "@/lib/client/api";

/** Asks before offboarding someone (DELETE /v1/employees/{id}), saying what happens to their access. */
export function DeactivateEmployeeDialog({ employee, onClose, onDone }: { employee: Employee | null; onClose: () => void; onDone: (employee: Employee) => void }) {
  return (
    <CodeConfirmDialog
      open={employee !== null}
      title="Deactivate employee"
      confirmLabel="Deactivate"
      pendingLabel="Deactivating…"
      danger
      onConfirm={(code) => api<Employee>(`/v1/employees/${encodeURIComponent(employee!.id)}`, { method: "DELETE", totpCode: code })}
      invalidates={[employeesQueryKey]}
      onClose={onClose}
      onDone={onDone}
    >
      {employee && (
        <>
          Deactivate <strong>{employee.name}</strong> ({employee.email})? Every session of theirs ends at once and they can no longer sign in
          {employee.status === "invited" ? "; the invitation link you sent them stops working" : ""}. Their name stays in the list and the audit log.
          This cannot be undone.
        </>
      )}
    </CodeConfirmDialog>
  );
}
