import { ROLE_DESCRIPTIONS, ROLES, type Role } from "@/lib/auth/permissions";

export const ROLE_LABELS: Record<Role, string> = {
  owner: "Owner",
  admin: "Admin",
  developer: "Developer",
  compliance: "Compliance",
  viewer: "Viewer",
};

/** Roles for a select, each with what it may do. */
export const roleOptions = ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role], description: ROLE_DESCRIPTIONS[role] }));
