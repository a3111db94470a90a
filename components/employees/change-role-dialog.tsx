"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { RolePicker } from "@/components/employees/role-picker";
import { grantableRoles } from "@/components/employees/roles";
import { showStepUpError } from "@/components/employees/show-step-up-error";
import { employeesQueryKey, type Employee } from "@/components/employees/use-employees";
import { useCan, useMe } from "@/components/me";
import { TotpCodeField } from "@/components/totp-code-field";
import { ErrorMessage } from "@/components/ui/data-state";
import { Dialog } from "@/components/ui/dialog";
import { api } from "@/lib/client/api";
import { changeRoleInput, totpCodeSchema } from "@/lib/employees/schemas";

const changeRoleForm = changeRoleInput.extend({ code: totpCodeSchema });
type Values = z.input<typeof changeRoleForm>;

/** Gives an employee another role (POST /v1/employees/{id}), with an authenticator code. */
export function ChangeRoleDialog({ employee, onClose, onDone }: { employee: Employee | null; onClose: () => void; onDone: (employee: Employee) => void }) {
  return (
    <Dialog open={employee !== null} onClose={onClose} title="Change role">
      {employee && <ChangeRoleForm employee={employee} onCancel={onClose} onDone={onDone} />}
    </Dialog>
  );
}

function ChangeRoleForm({ employee, onCancel, onDone }: { employee: Employee; onCancel: () => void; onDone: (employee: Employee) => void }) {
  const me = useMe();
  const can = useCan();
  const queryClient = useQueryClient();
  const isMe = employee.id === me.id;
  const form = useForm<Values>({ resolver: zodResolver(changeRoleForm), defaultValues: { role: employee.role, code: "" } });
  const [formError, setFormError] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async ({ role, code }) => {
    setFormError(null);
    // Same role: the API would answer 200 unchanged, and the code would be spent for nothing.
    if (role === employee.role) return form.setError("role", { type: "validate", message: "is already their role: choose another" });
    try {
      const changed = await api<Employee>(`/v1/employees/${encodeURIComponent(employee.id)}`, { method: "POST", body: { role }, totpCode: code });
      await queryClient.invalidateQueries({ queryKey: employeesQueryKey });
      // One's own new role changes what the dashboard offers, at once.
      if (isMe) await queryClient.invalidateQueries({ queryKey: ["me"] });
      onDone(changed);
    } catch (error) {
      setFormError(showStepUpError(error, form.setError, ["role", "code"]));
    }
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <p style={{ margin: 0 }}>
        {isMe ? (
          <>
            This is <strong>you</strong>: you lose what your new role does not allow as soon as it is saved.
          </>
        ) : (
          <>
            The new role of <strong>{employee.name}</strong> ({employee.email}) takes effect with their next request.
          </>
        )}
      </p>
      <RolePicker roles={grantableRoles(can)} current={employee.role} registration={form.register("role")} error={errors.role} />
      <TotpCodeField registration={form.register("code")} error={errors.code} />
      <ErrorMessage error={formError} />
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={!me.twoFactorEnabled || isSubmitting}>
          {isSubmitting ? "Saving…" : "Change role"}
        </button>
      </div>
    </form>
  );
}
