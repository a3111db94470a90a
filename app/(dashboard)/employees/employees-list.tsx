"use client";

import Link from "@/components/ui/link";
import { useState } from "react";
import { DataTable } from "@/components/ui/data-table";
import { mayActOnEmployees } from "@/components/employees/available-actions";
import { EmployeeActionButtons } from "@/components/employees/employee-action-buttons";
import { EmployeeActionDialogs, type OpenAction } from "@/components/employees/employee-action-dialogs";
import { InviteEmployeeDialog } from "@/components/employees/invite-employee-dialog";
import { ROLE_LABELS } from "@/components/employees/roles";
import { TwoFactorBadge } from "@/components/employees/two-factor-badge";
import { useEmployees, type Employee } from "@/components/employees/use-employees";
import { useCan, useMe } from "@/components/me";
import { Notice, usePageDialogs } from "@/components/ui/use-page-dialogs";
import { DataState } from "@/components/ui/data-state";
import { DateTime, StatusBadge } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";

/** Everyone who can sign in to this dashboard (or has been invited to), with what one may do to each. */
export function EmployeesList() {
  const me = useMe();
  const can = useCan();
  const employees = useEmployees();
  const [inviting, setInviting] = useState(false);
  const { open, notice, show, close, done } = usePageDialogs<OpenAction>();
  const withActions = mayActOnEmployees(can);
  return (
    <div className="stack">
      <PageHeader
        title="Employees"
        description="People who can sign in to this dashboard, and what each may do."
        actions={
          can("employees:write") && (
            <button type="button" className="primary" onClick={() => setInviting(true)}>
              Invite employee
            </button>
          )
        }
      />
      <Notice>{notice}</Notice>
      <DataState
        query={employees}
        isEmpty={employees.data?.length === 0}
        empty={
          <>
            No other employees yet.{" "}
            {can("employees:write") ? (
              <button type="button" className="link" onClick={() => setInviting(true)}>
                Invite one
              </button>
            ) : (
              "An owner or admin invites them."
            )}
          </>
        }
      >
        <DataTable
          label="Employees"
          className="employees-table"
          columns={["Employee", "Role", "Status", "2FA", "Last sign-in", withActions && "Actions"]}
        >
          {employees.data?.map((employee) => (
            <EmployeeRow
              key={employee.id}
              employee={employee}
              isMe={employee.id === me.id}
              withActions={withActions}
              onOpen={(action) => show({ action, employee })}
            />
          ))}
        </DataTable>
      </DataState>
      {can("employees:write") && <InviteEmployeeDialog open={inviting} onClose={() => setInviting(false)} />}
      <EmployeeActionDialogs open={open} onClose={close} onDone={done} />
    </div>
  );
}

/** One employee in the table; the Actions cell only for those who may act on employees. */
function EmployeeRow({
  employee,
  isMe,
  withActions,
  onOpen,
}: {
  employee: Employee;
  isMe: boolean;
  withActions: boolean;
  onOpen: Parameters<typeof EmployeeActionButtons>[0]["onOpen"];
}) {
  return (
    <tr>
      <td data-label="Employee">
        <Link href={`/employees/${employee.id}`}>{employee.name}</Link>
        {isMe && <span className="muted"> (you)</span>}
        <div className="muted employee-email">{employee.email}</div>
      </td>
      <td data-label="Role">{ROLE_LABELS[employee.role]}</td>
      <td data-label="Status">
        <StatusBadge status={employee.status} />
      </td>
      <td data-label="2FA">
        <TwoFactorBadge enabled={employee.twoFactorEnabled} />
      </td>
      <td data-label="Last sign-in">
        <DateTime value={employee.lastLoginAt} fallback="Never" />
      </td>
      {withActions && (
        <td data-label="Actions">
          <RowActions employee={employee} onOpen={onOpen} />
        </td>
      )}
    </tr>
  );
}

/** A row's buttons, or why it has none. */
function RowActions({
  employee,
  onOpen,
}: {
  employee: Employee;
  onOpen: Parameters<typeof EmployeeActionButtons>[0]["onOpen"];
}) {
  if (employee.status === "deactivated") {
    return (
      <span className="muted">
        Deactivated <DateTime value={employee.deactivatedAt} />
      </span>
    );
  }
  return (
    <EmployeeActionButtons
      employee={employee}
      onOpen={onOpen}
      fallback={<span className="muted">{employee.role === "owner" ? "Only owners change owners" : "None"}</span>}
    />
  );
}
