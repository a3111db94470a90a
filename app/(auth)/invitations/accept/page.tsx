import { ErrorMessage } from "@/components/ui/data-state";
import { invitationSignIn } from "@/lib/employees/invitations";
import { AcceptInvitationForm } from "./accept-form";

export const dynamic = "force-dynamic";
export const metadata = { title: "Accept invitation" };

// The link an invited employee receives: choose a password (then set up two-factor authentication), or,
// where the platform requires single sign-on, activate the account and sign in through the provider.
export default async function AcceptInvitationPage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string | string[] }>;
}) {
  const { token } = await searchParams;
  const signIn = typeof token === "string" && token.length <= 200 ? await invitationSignIn(token) : null;
  return (
    <main className="center-page">
      <div className="card stack">
        <div>
          <h1>Join your team</h1>
          {signIn === "password" && <p className="muted">Choose a password to activate your account.</p>}
          {signIn === "sso" && (
            <p className="muted">
              Your platform signs in through single sign-on: activate your account, then sign in with your work account.
            </p>
          )}
        </div>
        {signIn === null ? (
          <ErrorMessage error="This invitation link is invalid or has expired. Ask the person who invited you for a new one." />
        ) : (
          <AcceptInvitationForm token={token as string} signIn={signIn} />
        )}
      </div>
    </main>
  );
}
