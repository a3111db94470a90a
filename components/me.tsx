"use client";

import { useQuery } from "@tanstack/react-query";
import { createContext, useContext, type ReactNode } from "react";
import { toMe, type Me, type SessionBody } from "@/components/me-shape";
import type { Permission } from "@/lib/auth/permissions";
import { api } from "@/lib/client/api";

export type { Me };

const MeContext = createContext<Me | null>(null);

export function MeProvider({ me, children }: { me: Me; children: ReactNode }) {
  return <MeContext.Provider value={me}>{children}</MeContext.Provider>;
}

/** The signed-in employee, fresh from GET /v1/sessions/current (the server's answer at page load first). */
export function useMe(): Me {
  const initial = useContext(MeContext);
  const query = useQuery({
    queryKey: ["me"],
    queryFn: async () => toMe(await api<SessionBody>("/v1/sessions/current")),
    initialData: initial ?? undefined,
  });
  if (!query.data) throw new Error("useMe outside the dashboard");
  return query.data;
}

/**
 * Whether the signed-in employee's role allows `permission`: controls a role cannot use are not
 * offered (the API refuses them anyway, with 403 naming the permission).
 */
export function useCan(): (permission: Permission) => boolean {
  const me = useMe();
  return (permission) => me.permissions.includes(permission);
}
