import type { ReactNode } from "react";

/** A form's primary button: disabled while the form is sent, and saying so ("Saving…"). */
export function SubmitButton({
  pending,
  pendingLabel,
  children,
}: {
  pending: boolean;
  pendingLabel: string;
  children: ReactNode;
}) {
  return (
    <button type="submit" className="primary" disabled={pending}>
      {pending ? pendingLabel : children}
    </button>
  );
}
