import { ROLE_DESCRIPTIONS, ROLES, type Permission, type Role } from "@/lib/auth/permissions";

export const ROLE_LABELS: Record<Role, string> = {
  owner: "Owner",
  admin: "Admin",
  developer: "Developer",
  compliance: "Compliance",
  viewer: "Viewer",
};

/** Roles for a select, each with what it may do. */
export const roleOptions = ROLES.map((role) => ({
  value: role,
  label: ROLE_LABELS[role],
  description: ROLE_DESCRIPTIONS[role],
}));

/**
 * The roles someone holding these permissions may give, the API's own rule (assertMayGrant): any
 * role but viewer needs `roles`, owner also `owners`.
 */
export function grantableRoles(can: (permission: Permission) => boolean): Role[] {
  return ROLES.filter((role) => role === "viewer" || (can("roles") && (role !== "owner" || can("owners"))));
}
