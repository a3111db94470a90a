"use client";

import Link from "next/link";
import { TwoFactorBadge } from "@/components/employees/two-factor-badge";
import { useEmployee } from "@/components/employees/use-employees";
import { useMe } from "@/components/me";
import { DataState } from "@/components/ui/data-state";
import { DateTime, StatusBadge } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { ApiRequestError } from "@/lib/client/api";

/** One employee: status, two-factor authentication and sign-in history. */
export function EmployeeDetail({ id }: { id: string }) {
  const me = useMe();
  const employee = useEmployee(id);
  const back = <Link href="/employees">← All employees</Link>;

  // Another platform's employee, or a mistyped link, is simply not there (the API answers 404 for both).
  if (employee.error instanceof ApiRequestError && employee.error.status === 404) {
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

  const data = employee.data;
  return (
    <div className="stack">
      {back}
      <DataState query={employee}>
        {data && (
          <>
            <PageHeader title={data.name} description={data.id === me.id ? "This is you." : data.email} />
            <section className="card" aria-label="Details">
              <dl className="props">
                <dt>E-mail</dt>
                <dd>{data.email}</dd>
                <dt>Status</dt>
                <dd>
                  <StatusBadge status={data.status} />
                  {data.status === "invited" && <span className="muted"> — has not set a password yet</span>}
                </dd>
                <dt>Two-factor authentication</dt>
                <dd>
                  <TwoFactorBadge enabled={data.twoFactorEnabled} />
                  {data.id === me.id && !data.twoFactorEnabled && (
                    <>
                      {" "}
                      <Link href="/security">Set it up</Link>
                    </>
                  )}
                </dd>
                <dt>Last sign-in</dt>
                <dd>
                  <DateTime value={data.lastLoginAt} fallback="Never" />
                </dd>
                <dt>Added</dt>
                <dd>
                  <DateTime value={data.createdAt} />
                </dd>
                <dt>ID</dt>
                <dd>
                  <code>{data.id}</code>
                </dd>
              </dl>
            </section>
          </>
        )}
      </DataState>
    </div>
  );
}
