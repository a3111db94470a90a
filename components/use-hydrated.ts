"use client";

import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False in the server's HTML and until React has taken over the page, then true. Forms that carry a
 * password disable their submit button until then: a click before hydration would submit the form
 * natively, as a GET with the password in the URL (and lose what was typed).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
