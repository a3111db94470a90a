"use client";

import { createContext, useContext, useMemo, type ReactNode } from "react";
import { toMe, type Me, type SessionBody } from "@/components/me-shape";
import type { Permission } from "@/lib/auth/permissions";
import { useApiQuery } from "@/lib/client/queries";
import { currentSessionEndpoint } from "@/lib/employees/endpoints";

export type { Me };

const SessionContext = createContext<SessionBody | null>(null);

/** The server's answer of GET /v1/sessions/current at page load, shown until the browser's own. */
export function MeProvider({ session, children }: { session: SessionBody; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

/** The signed-in employee, fresh from GET /v1/sessions/current (the server's answer at page load first). */
export function useMe(): Me {
  const initial = useContext(SessionContext);
  const { data } = useApiQuery(currentSessionEndpoint, { initialData: initial ?? undefined });
  const me = useMemo(() => (data ? toMe(data) : null), [data]);
  if (!me) throw new Error("useMe outside the dashboard");
  return me;
}

/**
 * Whether the signed-in employee's role allows `permission`: controls a role cannot use are not
 * offered (the API refuses them anyway, with 403 naming the permission).
 */
export function useCan(): (permission: Permission) => boolean {
  const me = useMe();
  return (permission) => me.permissions.includes(permission);
}
