"use client";

import Link from "next/link";
import { useState } from "react";
import { InviteEmployeeDialog } from "@/components/employees/invite-employee-dialog";
import { TwoFactorBadge } from "@/components/employees/two-factor-badge";
import { useEmployees } from "@/components/employees/use-employees";
import { useMe } from "@/components/me";
import { DataState } from "@/components/ui/data-state";
import { DateTime, StatusBadge } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";

/** Everyone who can sign in to this dashboard (or has been invited to), with invitations. */
export function EmployeesList() {
  const me = useMe();
  const employees = useEmployees();
  const [inviting, setInviting] = useState(false);
  return (
    <div className="stack">
      <PageHeader
        title="Employees"
        description="People who can sign in to this dashboard. Invite someone and send them the link."
        actions={
          <button type="button" className="primary" onClick={() => setInviting(true)}>
            Invite employee
          </button>
        }
      />
      <DataState query={employees} isEmpty={employees.data?.length === 0} empty="No employees yet.">
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Status</th>
                <th scope="col">2FA</th>
                <th scope="col">Last sign-in</th>
              </tr>
            </thead>
            <tbody>
              {employees.data?.map((employee) => (
                <tr key={employee.id}>
                  <td>
                    <Link href={`/employees/${employee.id}`}>{employee.name}</Link>
                    {employee.id === me.id && <span className="muted"> (you)</span>}
                  </td>
                  <td>{employee.email}</td>
                  <td>
                    <StatusBadge status={employee.status} />
                  </td>
                  <td>
                    <TwoFactorBadge enabled={employee.twoFactorEnabled} />
                  </td>
                  <td>
                    <DateTime value={employee.lastLoginAt} fallback="Never" />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </DataState>
      <InviteEmployeeDialog open={inviting} onClose={() => setInviting(false)} />
    </div>
  );
}
