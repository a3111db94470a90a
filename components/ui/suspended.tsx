import { Suspense, type ComponentType } from "react";

/**
 * A page whose view reads the URL's search parameters (useSearchParams): it renders inside a
 * Suspense boundary, so the rest of the page is still prerendered, with "Loading…" in its place.
 */
export function suspended(View: ComponentType) {
  return function SuspendedPage() {
    return (
      <Suspense
        fallback={
          <p className="muted" role="status">
            Loading…
          </p>
        }
      >
        <View />
      </Suspense>
    );
  };
}
