import { DEFAULT_KEY_PERMISSIONS, KEY_PERMISSIONS, sortPermissions, type Permission } from "@/lib/auth/permissions";
import type { ApiKey } from "@/components/api-keys/use-api-keys";

// How the dashboard shows a key's permissions: grouped by what they are about, each resource on one
// line with its actions ("Virtual accounts: read, write"), so a list of twenty names stays readable.

/** "transactions" of "transactions:read"; "roles" and "owners" are their own resource. */
type Resource = Permission extends infer P ? (P extends `${infer R}:${string}` ? R : P) : never;

const RESOURCE_LABELS: Record<Resource, string> = {
  accounts: "Accounts",
  feature_flags: "Feature flags",
  transactions: "Transactions",
  virtual_accounts: "Virtual accounts",
  recipients: "Recipients",
  transfers: "Transfers",
  information_requests: "Information requests",
  kyc: "KYC",
  delegated_users: "Delegated users",
  api_keys: "API keys",
  webhooks: "Webhooks",
  sandbox: "Sandbox",
  employees: "Employees",
  audit_log: "Audit log",
  settings: "Settings",
  roles: "Roles",
  owners: "Owners",
};

/** Resources in the order people look for them; every permission's resource is in exactly one group. */
const GROUPS: { label: string; resources: Resource[] }[] = [
  { label: "Accounts & flags", resources: ["accounts", "feature_flags"] },
  { label: "Money", resources: ["transactions", "virtual_accounts", "recipients", "transfers"] },
  { label: "Compliance", resources: ["information_requests", "kyc", "delegated_users"] },
  { label: "Developers", resources: ["api_keys", "webhooks", "sandbox"] },
  { label: "Administration", resources: ["employees", "audit_log", "settings", "roles", "owners"] },
];

/** "roles" and "owners" have no `:action`; they read as what they allow. */
const SPECIAL_ACTIONS: Partial<Record<Permission, string>> = { roles: "change", owners: "make or remove" };

const resourceOf = (permission: Permission) => permission.split(":")[0] as Resource;
const actionOf = (permission: Permission) => SPECIAL_ACTIONS[permission] ?? permission.split(":")[1] ?? permission;

/** "transactions:read" → "Transactions: read". */
export const permissionLabel = (permission: Permission) =>
  `${RESOURCE_LABELS[resourceOf(permission)]}: ${actionOf(permission)}`;

export type ResourcePermissions = {
  resource: Resource;
  label: string;
  actions: { permission: Permission; action: string }[];
};
export type PermissionGroup = { label: string; resources: ResourcePermissions[] };

/** The permissions of `list`, grouped and in the groups' order; empty groups and resources are left out. */
export function groupPermissions(list: readonly Permission[]): PermissionGroup[] {
  const sorted = sortPermissions(list);
  return GROUPS.map((group) => ({
    label: group.label,
    resources: group.resources
      .map((resource) => ({
        resource,
        label: RESOURCE_LABELS[resource],
        actions: sorted
          .filter((permission) => resourceOf(permission) === resource)
          .map((permission) => ({ permission, action: actionOf(permission) })),
      }))
      .filter((entry) => entry.actions.length > 0),
  })).filter((group) => group.resources.length > 0);
}

/** "Virtual accounts: read, write", one line per resource, for a compact list. */
export const resourceLines = (list: readonly Permission[]) =>
  groupPermissions(list).flatMap((group) =>
    group.resources.map((entry) => `${entry.label}: ${entry.actions.map((item) => item.action).join(", ")}`),
  );

const sameSet = (a: readonly Permission[], b: readonly Permission[]) =>
  a.length === b.length && a.every((permission) => b.includes(permission));

/** What a key would get from the API with `permissions` left out, for someone holding `held`. */
export const defaultPermissionsFor = (held: readonly Permission[]) =>
  DEFAULT_KEY_PERMISSIONS.filter((permission) => held.includes(permission));

/** Every key permission `held` includes: what the issue form can offer. */
export const offerablePermissions = (held: readonly Permission[]) =>
  KEY_PERMISSIONS.filter((permission) => held.includes(permission));

/** The read permissions among those `held` can give a key. */
export const readOnlyPermissionsFor = (held: readonly Permission[]) =>
  offerablePermissions(held).filter((permission) => permission.endsWith(":read"));

/**
 * The issue dialog's starting points, each with what it grants. A new key starts read-only: a key
 * that can only read cannot move money, issue keys or point webhooks elsewhere if it leaks. (The API's
 * own default, with `permissions` left out, stays as the contract says: the "API default" preset.)
 */
export const PERMISSION_PRESETS = [
  {
    name: "read-only",
    label: "Read only",
    grants: "Reads what your role can read; changes nothing.",
    permissions: readOnlyPermissionsFor,
  },
  {
    name: "api-default",
    label: "API default",
    grants:
      "What the API gives a key issued without a list: read and write on everything a key may hold except managing employees, so it can also issue keys and change webhooks.",
    permissions: defaultPermissionsFor,
  },
  {
    name: "none",
    label: "None",
    grants: "Start empty and tick only what the key needs.",
    permissions: () => [] as Permission[],
  },
] as const satisfies readonly {
  name: string;
  label: string;
  grants: string;
  permissions: (held: readonly Permission[]) => Permission[];
}[];

/** The preset a choice matches exactly, or null for a custom choice. */
export const presetOf = (chosen: readonly Permission[], held: readonly Permission[]) =>
  PERMISSION_PRESETS.find((preset) => sameSet(sortPermissions(chosen), preset.permissions(held))) ?? null;

/** One phrase for a key's permissions, for the list ("All default permissions", "3 permissions, read only"). */
export function summarisePermissions(list: readonly Permission[]): string {
  const unique = sortPermissions(list);
  if (unique.length === 0) return "No permissions";
  if (sameSet(unique, DEFAULT_KEY_PERMISSIONS)) return "All default permissions";
  if (sameSet(unique, KEY_PERMISSIONS)) return "All permissions";
  const count = unique.length === 1 ? "1 permission" : `${unique.length} permissions`;
  return unique.every((permission) => permission.endsWith(":read")) ? `${count}, read only` : count;
}

/**
 * Who issued a key, in words. Employee names come from GET /v1/employees, which needs
 * employees:read: without it (`employees` undefined) other people are "an employee".
 */
export function creatorLabel(
  createdBy: ApiKey["createdBy"],
  {
    meId,
    employees,
    keys,
  }: { meId: string; employees?: ReadonlyMap<string, string>; keys: readonly Pick<ApiKey, "id" | "name" | "prefix">[] },
): string | null {
  if (!createdBy) return null;
  if (createdBy.type === "employee") {
    if (createdBy.id === meId) return "you";
    return employees?.get(createdBy.id) ?? "an employee";
  }
  const key = keys.find((candidate) => candidate.id === createdBy.id);
  return key ? `the key ${key.name ?? `${key.prefix}…`}` : "another API key";
}
