import type { ReactNode } from "react";

/** Says why a form is shown but cannot be changed: the signed-in role may read it, not change it. */
export function ReadOnlyNote({ children }: { children: ReactNode }) {
  return (
    <p className="alert info" role="note" style={{ margin: 0 }}>
      {children}
    </p>
  );
}
