import type { Permission } from "@/lib/auth/permissions";

/**
 * The dashboard's pages, in the navigation's order, each with the permission it needs to be of use.
 * `platformWide`: the page shows the whole platform whichever account is chosen (the API ignores
 * Service-Account-Id there beyond checking it names one of the platform's accounts).
 */
export const dashboardLinks: { href: string; label: string; permission: Permission | null; platformWide?: true }[] = [
  { href: "/information-requests", label: "Information requests", permission: "information_requests:read" },
  { href: "/kyc", label: "KYC", permission: "kyc:read" },
  { href: "/transactions", label: "Transactions", permission: "transactions:read" },
  { href: "/virtual-accounts", label: "Virtual accounts", permission: "virtual_accounts:read" },
  { href: "/recipients", label: "Recipients", permission: "recipients:read" },
  { href: "/delegated-users", label: "Delegated users", permission: "delegated_users:read" },
  { href: "/accounts", label: "Accounts", permission: "accounts:read", platformWide: true },
  { href: "/feature-flags", label: "Feature flags", permission: "feature_flags:read" },
  { href: "/api-keys", label: "API keys", permission: "api_keys:read" },
  { href: "/webhooks", label: "Webhooks", permission: "webhooks:read" },
  { href: "/employees", label: "Employees", permission: "employees:read", platformWide: true },
  { href: "/audit-log", label: "Audit log", permission: "audit_log:read", platformWide: true },
  { href: "/settings", label: "Settings", permission: "settings:read", platformWide: true },
  { href: "/security", label: "Security", permission: null, platformWide: true },
];

/** The navigation entry a path belongs to (itself or a page under it). */
export const linkFor = (pathname: string) =>
  dashboardLinks.find((link) => pathname === link.href || pathname.startsWith(`${link.href}/`));

/** Where a signed-in employee lands: the first page their role can use. */
export function homeFor(permissions: readonly Permission[]): string {
  return dashboardLinks.find((link) => link.permission === null || permissions.includes(link.permission))!.href;
}
