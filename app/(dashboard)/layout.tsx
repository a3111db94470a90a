import { headers } from "next/headers";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { AccountScope } from "@/components/account-scope";
import { MeProvider } from "@/components/me";
import { Sidebar } from "@/components/nav";
import { TwoFactorGate } from "@/components/two-factor-gate";
import { currentEmployee } from "@/lib/auth/current-employee";
import { loginHref } from "@/lib/auth/next-path";
import { REQUEST_PATH_HEADER } from "@/lib/http/edge.mjs";

export const dynamic = "force-dynamic";

// Every dashboard page: signed-in employees only, inside the navigation shell. Signed out, the
// employee signs in and comes back to the page asked for, with its filters: a layout is not told
// its page's address, so server.mjs (proxy.dev.ts under `next dev`) passes it along (validated again by loginHref, like any `next`).
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await currentEmployee();
  if (!session) redirect(loginHref((await headers()).get(REQUEST_PATH_HEADER)));
  return (
    <AccountScope>
      <MeProvider session={session}>
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        <div className="shell">
          <Sidebar />
          <main id="main" className="main">
            <TwoFactorGate>{children}</TwoFactorGate>
          </main>
        </div>
      </MeProvider>
    </AccountScope>
  );
}
