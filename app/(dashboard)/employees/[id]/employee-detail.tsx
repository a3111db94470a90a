"use client";

import type { ReactNode } from "react";
import Link from "@/components/ui/link";
import { mayActOnEmployees } from "@/components/employees/available-actions";
import { EmployeeActionButtons } from "@/components/employees/employee-action-buttons";
import { EmployeeActionDialogs, type OpenAction } from "@/components/employees/employee-action-dialogs";
import { ROLE_LABELS } from "@/components/employees/roles";
import { TwoFactorBadge } from "@/components/employees/two-factor-badge";
import { useEmployee, type Employee } from "@/components/employees/use-employees";
import { useCan, useMe } from "@/components/me";
import { Notice, usePageDialogs } from "@/components/ui/use-page-dialogs";
import { DataState } from "@/components/ui/data-state";
import { DateTime, StatusBadge } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { ROLE_DESCRIPTIONS } from "@/lib/auth/permissions";
import { ApiRequestError } from "@/lib/client/api";

/** One employee: role, status, two-factor authentication and sign-in history, with what one may do to them. */
export function EmployeeDetail({ id }: { id: string }) {
  const me = useMe();
  const can = useCan();
  const employee = useEmployee(id);
  const { open, notice, show, close, done } = usePageDialogs<OpenAction>();
  const back = <Link href="/employees">← All employees</Link>;

  // Another platform's employee, or a mistyped link, is simply not there (the API answers 404 for both).
  if (employee.error instanceof ApiRequestError && employee.error.status === 404) {
    return <EmployeeNotFound id={id} back={back} />;
  }

  const data = employee.data;
  // Someone who could act on others learns why an owner offers nothing.
  const ownerOnly = data?.role === "owner" && data.status !== "deactivated" && mayActOnEmployees(can) && !can("owners");
  return (
    <div className="stack">
      {back}
      <DataState query={employee}>
        {data && (
          <>
            <PageHeader
              title={data.name}
              description={data.id === me.id ? "This is you." : data.email}
              actions={
                <EmployeeActionButtons
                  employee={data}
                  onOpen={(action) => show({ action, employee: data })}
                  fallback={ownerOnly && <span className="muted">Only owners change owners</span>}
                />
              }
            />
            <Notice>{notice}</Notice>
            <EmployeeFacts employee={data} isMe={data.id === me.id} />
            <EmployeeActionDialogs open={open} onClose={close} onDone={done} />
          </>
        )}
      </DataState>
    </div>
  );
}

/** Another platform's employee or a mistyped id: said plainly, with the way back. */
function EmployeeNotFound({ id, back }: { id: string; back: ReactNode }) {
  return (
    <div className="stack">
      {back}
      <PageHeader title="Employee not found" />
      <div className="empty card" role="status">
        <p style={{ marginTop: 0 }}>
          There is no employee with the id <code>{id}</code> on your platform.
        </p>
        <Link href="/employees">Back to the employees</Link>
      </div>
    </div>
  );
}

/** The employee's particulars; `isMe` offers setting up two-factor authentication to the employee themselves. */
function EmployeeFacts({ employee, isMe }: { employee: Employee; isMe: boolean }) {
  return (
    <section className="card" aria-label="Details">
      <dl className="props employee-props">
        <dt>E-mail</dt>
        <dd>{employee.email}</dd>
        <dt>Role</dt>
        <dd>
          {ROLE_LABELS[employee.role]} <span className="muted">— {ROLE_DESCRIPTIONS[employee.role]}</span>
        </dd>
        <dt>Status</dt>
        <dd>
          <StatusBadge status={employee.status} />
          {employee.status === "invited" && <span className="muted"> — has not set a password yet</span>}
        </dd>
        {employee.deactivatedAt && (
          <>
            <dt>Deactivated</dt>
            <dd>
              <DateTime value={employee.deactivatedAt} />
            </dd>
          </>
        )}
        <dt>Two-factor authentication</dt>
        <dd>
          <TwoFactorBadge enabled={employee.twoFactorEnabled} />
          {isMe && !employee.twoFactorEnabled && (
            <>
              {" "}
              <Link href="/security">Set it up</Link>
            </>
          )}
        </dd>
        <dt>Last sign-in</dt>
        <dd>
          <DateTime value={employee.lastLoginAt} fallback="Never" />
        </dd>
        <dt>Added</dt>
        <dd>
          <DateTime value={employee.createdAt} />
        </dd>
        <dt>ID</dt>
        <dd>
          <code>{employee.id}</code>
        </dd>
      </dl>
    </section>
  );
}
