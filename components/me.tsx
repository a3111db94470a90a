"use client";

import { useQuery } from "@tanstack/react-query";
import { createContext, useContext, type ReactNode } from "react";
import { api } from "@/lib/client/api";

export type Me = { id: string; name: string; email: string; twoFactorEnabled: boolean; accountName: string };

const MeContext = createContext<Me | null>(null);

export function MeProvider({ me, children }: { me: Me; children: ReactNode }) {
  return <MeContext.Provider value={me}>{children}</MeContext.Provider>;
}

type SessionBody = { employee: Omit<Me, "accountName">; account: { name: string } };

/** The signed-in employee, fresh from GET /v1/sessions/current (the server's answer at page load first). */
export function useMe(): Me {
  const initial = useContext(MeContext);
  const query = useQuery({
    queryKey: ["me"],
    queryFn: async () => {
      const body = await api<SessionBody>("/v1/sessions/current");
      return { ...body.employee, accountName: body.account.name };
    },
    initialData: initial ?? undefined,
  });
  if (!query.data) throw new Error("useMe outside the dashboard");
  return query.data;
}
