import { presentAccount, type AccountRow } from "@/lib/accounts/schemas";
import { presentEmployee, type EmployeeRow } from "@/lib/employees/schemas";

export function presentSession({ employee, account, session }: { employee: EmployeeRow; account: AccountRow; session: { expiresAt: Date } }) {
  return { employee: presentEmployee(employee), account: presentAccount(account), expiresAt: session.expiresAt };
}
