import type { Permission } from "@/lib/auth/permissions";
import type { Employee } from "@/components/employees/use-employees";

export type EmployeeAction = "change-role" | "new-invitation" | "password-reset" | "deactivate" | "reset-two-factor";

/**
 * What the signed-in employee may do to `employee`, in the order the buttons show. The API decides
 * in the end; this only keeps out of sight what it would refuse (403) or what makes no sense.
 */
export function availableActions({
  meId,
  employee,
  can,
}: {
  meId: string;
  employee: Employee;
  can: (permission: Permission) => boolean;
}): EmployeeAction[] {
  if (employee.status === "deactivated") return [];
  // Only owners make or remove owners, and only they may deactivate or reset an owner.
  if (employee.role === "owner" && !can("owners")) return [];
  const actions: EmployeeAction[] = [];
  if (can("roles")) actions.push("change-role");
  // A new invitation link grants the role again: the API asks what inviting with that role asks.
  if (employee.status === "invited" && can("employees:write") && (employee.role === "viewer" || can("roles")))
    actions.push("new-invitation");
  // One's own password is changed under Security, with the current one (the API answers 403 here).
  if (employee.status === "active" && employee.id !== meId && can("employees:write")) actions.push("password-reset");
  // Not for oneself: deactivating would lock one out, and one's own 2FA is turned off by someone else (the API answers 403).
  if (employee.id !== meId && can("employees:write")) {
    actions.push("deactivate");
    if (employee.twoFactorEnabled) actions.push("reset-two-factor");
  }
  return actions;
}

/** Whether the signed-in employee could act on anyone at all: otherwise the list has no Actions column. */
export const mayActOnEmployees = (can: (permission: Permission) => boolean) => can("roles") || can("employees:write");
