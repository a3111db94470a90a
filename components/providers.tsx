"use client";

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { ApiRequestError } from "@/lib/client/api";

/**
 * A 401 from the API means the session is over (signed out elsewhere, expired, or the employee was
 * deactivated): the dashboard goes to sign-in at once instead of showing errors on a page that
 * cannot work. Client-side navigation does not re-run the layout's server check, so this is where
 * an open browser learns it on its next click.
 */
function signInAgainOn401(error: unknown) {
  if (error instanceof ApiRequestError && error.status === 401 && window.location.pathname !== "/login")
    window.location.assign("/login");
}

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({ onError: signInAgainOn401 }),
        mutationCache: new MutationCache({ onError: signInAgainOn401 }),
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
