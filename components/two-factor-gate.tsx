"use client";

import { usePathname } from "next/navigation";
import { useAccountRouter } from "@/components/account-scope";
import { useEffect, type ReactNode } from "react";
import { useMe } from "@/components/me";
import { mustEnrol } from "@/components/nav";

/**
 * When the platform requires two-factor authentication and this employee has none, every page but
 * Security takes them there (the API would answer everything else with err_two_factor_required).
 */
export function TwoFactorGate({ children }: { children: ReactNode }) {
  const me = useMe();
  const pathname = usePathname();
  const router = useAccountRouter();
  const blocked = mustEnrol(me) && pathname !== "/security";
  useEffect(() => {
    if (blocked) router.replace("/security");
  }, [blocked, router]);
  if (blocked) {
    return (
      <div className="alert warn" role="alert">
        Your platform requires two-factor authentication. Taking you to Security to set it up…
      </div>
    );
  }
  return <>{children}</>;
}
