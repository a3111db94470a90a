import { presentAccount, type AccountRow } from "@/lib/accounts/schemas";
import { ROLE_PERMISSIONS } from "@/lib/auth/permissions";
import { presentEmployee, roleOf, type EmployeeRow } from "@/lib/employees/schemas";

/** The signed-in employee as the dashboard needs it; `account` is the platform's own account, which holds the settings. */
export function presentSession({
  employee,
  account,
  session,
}: {
  employee: EmployeeRow;
  account: AccountRow & { requireTwoFactor: boolean; fourEyesApproval: boolean };
  session: { expiresAt: Date };
}) {
  return {
    employee: presentEmployee(employee),
    account: presentAccount(account),
    expiresAt: session.expiresAt,
    permissions: [...ROLE_PERMISSIONS[roleOf(employee)]],
    settings: { requireTwoFactor: account.requireTwoFactor, fourEyesApproval: account.fourEyesApproval },
  };
}
