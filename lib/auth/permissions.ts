// Who may do what: the one table of roles and permissions (docs/security.md, Who may do what).
// Every endpoint definition names the permission it needs; the route wrapper checks it for sessions
// (through the employee's role) and API keys (through the key's own list) alike.
// Client-safe: the dashboard reads the same table to offer only the controls a role can use.

import { jsonNames } from "@/lib/db/json";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { EventType } from "@/lib/webhooks/event-types";

/** Every permission, as `<resource>:<read|write>` plus a few special ones. */
export const PERMISSIONS = [
  "accounts:read",
  "feature_flags:read",
  "feature_flags:write",
  "api_keys:read",
  "api_keys:write",
  "employees:read",
  "employees:write",
  "delegated_users:read",
  "delegated_users:write",
  "transactions:read",
  "virtual_accounts:read",
  "virtual_accounts:write",
  "recipients:read",
  "recipients:write",
  "transfers:read",
  "information_requests:read",
  "information_requests:write",
  "kyc:read",
  "kyc:write",
  "audit_log:read",
  "webhooks:read",
  "webhooks:write",
  "settings:read",
  "settings:write",
  /** Create test objects through /v1/sandbox. */
  "sandbox:write",
  /** Change an employee's role (other than to or from owner). */
  "roles",
  /** Make or remove owners: give or take away the owner role, deactivate an owner. */
  "owners",
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export const ROLES = ["owner", "admin", "developer", "compliance", "viewer"] as const;
export type Role = (typeof ROLES)[number];

const everything: readonly Permission[] = PERMISSIONS;
const allReads = PERMISSIONS.filter((permission) => permission.endsWith(":read"));

/** Day-to-day operations: developers and compliance staff read all of these. */
const operational: Permission[] = [
  "accounts:read",
  "feature_flags:read",
  "transactions:read",
  "virtual_accounts:read",
  "recipients:read",
  "delegated_users:read",
  "transfers:read",
  "audit_log:read",
  "settings:read",
];

/** The permission table. */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: everything,
  admin: everything.filter((permission) => permission !== "owners"),
  developer: [
    ...operational,
    "api_keys:read",
    "api_keys:write",
    "webhooks:read",
    "webhooks:write",
    "feature_flags:write",
    "sandbox:write",
  ],
  compliance: [
    ...operational,
    "information_requests:read",
    "information_requests:write",
    "kyc:read",
    "kyc:write",
    "delegated_users:write",
  ],
  viewer: allReads,
};

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  owner: "Everything, including owners and platform settings",
  admin: "Everything except making or removing owners",
  developer: "API keys, webhooks, feature flags and the sandbox; reads operations",
  compliance: "Information requests, KYC and delegated users; reads operations",
  viewer: "Reads everything, changes nothing",
};

/** What no API key may hold: changing roles or owners, and platform settings. */
const NEVER_ON_KEYS: readonly Permission[] = ["roles", "owners", "settings:write"];

/** Everything a key may be given. */
export const KEY_PERMISSIONS: readonly Permission[] = PERMISSIONS.filter(
  (permission) => !NEVER_ON_KEYS.includes(permission),
);

/** What a key gets when `permissions` is left out: every key permission except `employees:write`, which must be named. */
export const DEFAULT_KEY_PERMISSIONS: readonly Permission[] = KEY_PERMISSIONS.filter(
  (permission) => permission !== "employees:write",
);

/** A permission to read one resource. */
export type ReadPermission = Extract<Permission, `${string}:read`>;

const READ_PERMISSIONS = PERMISSIONS.filter((permission): permission is ReadPermission => permission.endsWith(":read"));

/**
 * The read permission of the resource each webhook event type shows. Total by type: an event type
 * added to lib/webhooks/event-types.ts without a line here does not compile.
 */
export const EVENT_TYPE_READ_PERMISSIONS = {
  "information_request.created": "information_requests:read",
  "information_request.status_changed": "information_requests:read",
  "information_request.assigned": "information_requests:read",
  "information_request.sla_breached": "information_requests:read",
  "information_request.note_added": "information_requests:read",
  "information_request.document_added": "information_requests:read",
  "kyc.submission.created": "kyc:read",
  "kyc.agreement.accepted": "kyc:read",
  "kyc.profile.updated": "kyc:read",
  "transaction.created": "transactions:read",
  "transfer.created": "transfers:read",
  "virtual_account.deactivated": "virtual_accounts:read",
  "recipient.deleted": "recipients:read",
  "delegated_user.created": "delegated_users:read",
  "api_key.created": "api_keys:read",
  "api_key.revoked": "api_keys:read",
  "api_key.leaked": "api_keys:read",
  "api_key.expiring": "api_keys:read",
  "employee.invited": "employees:read",
  "employee.deactivated": "employees:read",
  "audit.checkpoint": "audit_log:read",
  "webhook.test": "webhooks:read",
} as const satisfies Record<EventType, ReadPermission>;

/**
 * The one rule for derived views (a webhook subscription, the delivery log, a retry, an export): a
 * derived view is bound by the read permission of what it shows, so no credential learns through one
 * what it may not read directly. `shown` is a webhook event type, or a resource's read permission
 * (an export of that resource). Answers the read permission `caller` lacks, or null when it may see
 * the view. What is neither (an event type no longer known) needs every read permission.
 */
export function missingReadPermission(
  caller: { permissions: readonly Permission[] },
  shown: string,
): ReadPermission | null {
  const needed: readonly ReadPermission[] = Object.hasOwn(EVENT_TYPE_READ_PERMISSIONS, shown)
    ? [EVENT_TYPE_READ_PERMISSIONS[shown as EventType]]
    : READ_PERMISSIONS.includes(shown as ReadPermission)
      ? [shown as ReadPermission]
      : READ_PERMISSIONS;
  return needed.find((permission) => !caller.permissions.includes(permission)) ?? null;
}

/** Whether `caller` (a role's or a key's permissions) may see a derived view of `shown` (see missingReadPermission). */
export const maySeeDerived = (caller: { permissions: readonly Permission[] }, shown: string) =>
  missingReadPermission(caller, shown) === null;

export const isPermission = (value: string): value is Permission => (PERMISSIONS as readonly string[]).includes(value);

export const roleAllows = (role: Role, permission: Permission) => ROLE_PERMISSIONS[role].includes(permission);

/** Permissions in the table's order, without duplicates. */
export const sortPermissions = (list: Iterable<Permission>): Permission[] => {
  const set = new Set(list);
  return PERMISSIONS.filter((permission) => set.has(permission));
};

/**
 * A key's stored list of permission names (its Json column, parsed, or its JSON text from a raw read);
 * names no longer in the table are dropped (they grant nothing).
 */
export function permissionList(stored: Prisma.JsonValue): readonly Permission[] {
  if (typeof stored !== "string") return Object.freeze(sortPermissions(jsonNames(stored, isPermission)));
  // Every key-authenticated request reads its key's list as text: the few distinct lists are parsed once.
  let list = parsedLists.get(stored);
  if (!list) {
    list = Object.freeze(sortPermissions(jsonNames(stored, isPermission)));
    if (parsedLists.size >= 1000) parsedLists.clear();
    parsedLists.set(stored, list);
  }
  return list;
}

const parsedLists = new Map<string, readonly Permission[]>();
