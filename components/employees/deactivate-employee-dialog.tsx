"use client";

import { useQueryClient } from "@tanstack/react-query";
import { CodeConfirmDialog } from "@/components/employees/code-confirm-dialog";
import { employeesQueryKey, type Employee } from "@/components/employees/use-employees";
import { api } from "@/lib/client/api";

/** Asks before offboarding someone (DELETE /v1/employees/{id}), saying what happens to their access. */
export function DeactivateEmployeeDialog({ employee, onClose, onDone }: { employee: Employee | null; onClose: () => void; onDone: (employee: Employee) => void }) {
  const queryClient = useQueryClient();
  return (
    <CodeConfirmDialog
      open={employee !== null}
      title="Deactivate employee"
      confirmLabel="Deactivate"
      pendingLabel="Deactivating…"
      onConfirm={async (code) => {
        const deactivated = await api<Employee>(`/v1/employees/${encodeURIComponent(employee!.id)}`, { method: "DELETE", totpCode: code });
        await queryClient.invalidateQueries({ queryKey: employeesQueryKey });
        return deactivated;
      }}
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
