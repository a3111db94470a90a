"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useMe } from "@/components/me";
import { api } from "@/lib/client/api";

const links = [
  { href: "/information-requests", label: "Information requests" },
  { href: "/kyc", label: "KYC" },
  { href: "/transactions", label: "Transactions" },
  { href: "/virtual-accounts", label: "Virtual accounts" },
  { href: "/recipients", label: "Recipients" },
  { href: "/delegated-users", label: "Delegated users" },
  { href: "/accounts", label: "Accounts" },
  { href: "/feature-flags", label: "Feature flags" },
  { href: "/api-keys", label: "API keys" },
  { href: "/employees", label: "Employees" },
  { href: "/audit-log", label: "Audit log" },
  { href: "/security", label: "Security" },
];

export function Sidebar() {
  const pathname = usePathname();
  const router = useRouter();
  const me = useMe();
  return (
    <aside className="sidebar">
      <Link href="/information-requests" className="brand">
        {me.accountName}
      </Link>
      <nav aria-label="Main">
        <ul>
          {links.map((link) => (
            <li key={link.href}>
              <Link href={link.href} aria-current={pathname === link.href || pathname.startsWith(`${link.href}/`) ? "page" : undefined}>
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="who">
        <span>
          Signed in as <strong>{me.name}</strong>
        </span>
        {!me.twoFactorEnabled && (
          <Link href="/security" className="badge warn">
            2FA is off
          </Link>
        )}
        <button
          type="button"
          onClick={async () => {
            await api("/v1/sessions/current", { method: "DELETE" }).catch(() => undefined);
            router.push("/login");
            router.refresh();
          }}
        >
          Sign out
        </button>
      </div>
    </aside>
  );
}
