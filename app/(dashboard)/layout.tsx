import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { MeProvider } from "@/components/me";
import { Sidebar } from "@/components/nav";
import { TwoFactorGate } from "@/components/two-factor-gate";
import { currentEmployee } from "@/lib/auth/current-employee";

export const dynamic = "force-dynamic";

// Every dashboard page: signed-in employees only, inside the navigation shell.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await currentEmployee();
  if (!session) redirect("/login");
  return (
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
  );
}
