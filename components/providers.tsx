"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { ApiRequestError } from "@/lib/client/api";

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      // A 401 (the session is over) is answered in lib/client/api.ts, for every call the dashboard makes.
      new QueryClient({
        defaultOptions: {
          queries: {
            staleTime: 10_000,
            // A refusal will not change by asking again; a network blip might.
            retry: (count, error) => !(error instanceof ApiRequestError && error.status < 500) && count < 2,
            refetchOnWindowFocus: false,
          },
        },
      }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
