import { Suspense, type ComponentType } from "react";

/**
 * A page whose view reads the URL's search parameters (useSearchParams): it renders inside a
 * Suspense boundary, so the rest of the page is still prerendered, with "Loading…" in its place.
 * `props`: what the server gives the view (the audit log's list of actions).
 */
export function suspended<P extends object>(View: ComponentType<P>, props: P = {} as P) {
  return function SuspendedPage() {
    return (
      <Suspense
        fallback={
          <p className="muted" role="status">
            Loading…
          </p>
        }
      >
        <View {...props} />
      </Suspense>
    );
  };
}
