"use client";

import Link from "@/components/ui/link";
import { usePathname } from "next/navigation";
import { useId, useState } from "react";
import { AccountSwitcher, ChosenAccount } from "@/components/account-switcher";
import { useMe } from "@/components/me";
import { dashboardLinks, homeFor } from "@/components/nav-links";
import { signOut } from "@/lib/client/api";
import { ROLE_LABELS } from "@/components/employees/roles";

/** True when the platform requires 2FA and this employee has none yet: only enrolment is open to them. */
export const mustEnrol = (me: {
  twoFactorEnabled: boolean;
  viaSso: boolean;
  settings: { requireTwoFactor: boolean };
}) => me.settings.requireTwoFactor && !me.twoFactorEnabled && !me.viaSso;

/**
 * The shell's sidebar: the account switcher, the pages the employee's role can use, and who is
 * signed in. On a phone (globals.css) it is a bar with a "Menu" button that shows the rest.
 */
export function Sidebar() {
  const pathname = usePathname();
  const me = useMe();
  const panelId = useId();
  const [open, setOpen] = useState(false);
  const links = mustEnrol(me)
    ? dashboardLinks.filter((link) => link.href === "/security")
    : dashboardLinks.filter((link) => link.permission === null || me.permissions.includes(link.permission));
  return (
    <aside className="sidebar">
      <div className="sidebar-bar">
        <Link href={homeFor(me.permissions)} className="brand">
          {me.accountName}
        </Link>
        <ChosenAccount />
        <button
          type="button"
          className="menu-button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen(!open)}
        >
          Menu
        </button>
      </div>
      <div id={panelId} className="sidebar-panel" data-open={open}>
        <AccountSwitcher />
        <nav aria-label="Main">
          <ul>
            {links.map((link) => (
              <li key={link.href}>
                <Link
                  href={link.href}
                  aria-current={pathname === link.href || pathname.startsWith(`${link.href}/`) ? "page" : undefined}
                  onClick={() => setOpen(false)}
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <SignedInAs />
      </div>
    </aside>
  );
}

function SignedInAs() {
  const me = useMe();
  return (
    <div className="who">
      <span>
        Signed in as <strong>{me.name}</strong> <span className="role">({ROLE_LABELS[me.role]})</span>
      </span>
      {!me.twoFactorEnabled && (
        <Link href="/security" className="badge warn">
          2FA is off
        </Link>
      )}
      <button type="button" onClick={() => void signOut()}>
        Sign out
      </button>
    </div>
  );
}
