"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { RolePicker } from "@/components/employees/role-picker";
import { grantableRoles } from "@/components/employees/roles";
import { employeesQueryKey, type Employee } from "@/components/employees/use-employees";
import { useCan, useMe } from "@/components/me";
import { StepUpForm } from "@/components/step-up-form";
import { useApiForm } from "@/components/use-api-form";
import { api } from "@/lib/client/api";
import { queryKey } from "@/lib/client/query-keys";
import { changeRoleEndpoint, currentSessionEndpoint } from "@/lib/employees/endpoints";
import { changeRoleInput, totpCodeSchema } from "@/lib/employees/schemas";

const changeRoleForm = changeRoleInput.extend({ code: totpCodeSchema });
type Values = z.input<typeof changeRoleForm>;

/** Gives an employee another role (POST /v1/employees/{id}), with an authenticator code. */
export function ChangeRoleForm({
  employee,
  onCancel,
  onDone,
}: {
  employee: Employee;
  onCancel: () => void;
  onDone: (employee: Employee) => void;
}) {
  const me = useMe();
  const can = useCan();
  const isMe = employee.id === me.id;
  const apiForm = useApiForm<Values, Employee>({
    resolver: zodResolver(changeRoleForm),
    defaultValues: { role: employee.role, code: "" },
    // Same role: the API would answer 200 unchanged, and the code would be spent for nothing.
    beforeSubmit: ({ role }, form) => {
      if (role !== employee.role) return true;
      form.setError("role", { type: "validate", message: "is already their role: choose another" });
      return false;
    },
    submit: ({ role, code }) =>
      api(changeRoleEndpoint, { params: { id: employee.id }, body: { role }, totpCode: code }),
    // One's own new role changes what the dashboard offers, at once.
    invalidates: isMe ? [employeesQueryKey, queryKey(currentSessionEndpoint)] : [employeesQueryKey],
    onDone,
    fields: ["role", "code"],
    conflict: "form",
  });
  const { form } = apiForm;
  return (
    <StepUpForm apiForm={apiForm} onCancel={onCancel} confirmLabel="Change role" pendingLabel="Saving…">
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
      <RolePicker
        roles={grantableRoles(can)}
        current={employee.role}
        registration={form.register("role")}
        error={form.formState.errors.role}
      />
    </StepUpForm>
  );
}
