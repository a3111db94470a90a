import type { ReactNode } from "react";
import { ErrorMessage } from "@/components/ui/data-state";
import { SsoStartForm } from "@/components/sso/sso-start-form";

/**
 * The sign-in page's single sign-on: "Sign in with SSO" (SsoStartForm), and why the last attempt
 * failed (`?sso_error=`). The page cannot know who signs in before the e-mail is typed, so the
 * platform's setting decides what it shows: where SSO is required, the password form (`children`) folds away behind "Owners: sign in
 * with a password", their break-glass for when the provider is down.
 */
export function SsoSignIn({
  hint,
  returnTo,
  error,
  children,
}: {
  hint: { available: boolean; enforced: boolean };
  returnTo: string | null;
  error: string | null;
  children: ReactNode;
}) {
  if (!hint.available) {
    return (
      <>
        <ErrorMessage error={error} />
        {children}
      </>
    );
  }
  return (
    <>
      <ErrorMessage error={error} />
      <SsoStartForm returnTo={returnTo} />
      {hint.enforced ? (
        <details>
          <summary>Owners: sign in with a password</summary>
          <div style={{ marginTop: "0.75rem" }}>{children}</div>
        </details>
      ) : (
        <>
          <p className="muted" style={{ margin: 0, textAlign: "center" }}>
            or with your password
          </p>
          {children}
        </>
      )}
    </>
  );
}
