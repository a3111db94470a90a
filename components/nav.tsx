"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useMe } from "@/components/me";
import { dashboardLinks, homeFor } from "@/components/nav-links";
import { api } from "@/lib/client/api";
import { signOutEndpoint } from "@/lib/employees/endpoints";
import { ROLE_LABELS } from "@/components/employees/roles";

/** True when the platform requires 2FA and this employee has none yet: only enrolment is open to them. */
export const mustEnrol = (me: { twoFactorEnabled: boolean; settings: { requireTwoFactor: boolean } }) =>
  me.settings.requireTwoFactor && !me.twoFactorEnabled;

export function Sidebar() {
  const pathname = usePathname();
  const me = useMe();
  const links = mustEnrol(me)
    ? dashboardLinks.filter((link) => link.href === "/security")
    : dashboardLinks.filter((link) => link.permission === null || me.permissions.includes(link.permission));
  return (
    <aside className="sidebar">
      <Link href={homeFor(me.permissions)} className="brand">
        {me.accountName}
      </Link>
      <nav aria-label="Main">
        <ul>
          {links.map((link) => (
            <li key={link.href}>
              <Link
                href={link.href}
                aria-current={pathname === link.href || pathname.startsWith(`${link.href}/`) ? "page" : undefined}
              >
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="who">
        <span>
          Signed in as <strong>{me.name}</strong> <span className="muted">({ROLE_LABELS[me.role]})</span>
        </span>
        {!me.twoFactorEnabled && (
          <Link href="/security" className="badge warn">
            2FA is off
          </Link>
        )}
        <button
          type="button"
          onClick={() => {
            // A full page load: nothing the signed-out employee saw stays in this tab's memory.
            void api(signOutEndpoint)
              .catch(() => undefined)
              .then(() => window.location.assign("/login"));
          }}
        >
          Sign out
        </button>
      </div>
    </aside>
  );
}
