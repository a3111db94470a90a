import { AcceptInvitationForm } from "./accept-form";

export const metadata = { title: "Accept invitation" };

// The link an invited employee receives: choose a password, then set up two-factor authentication.
export default function AcceptInvitationPage() {
  return (
    <main className="center-page">
      <div className="card stack">
        <div>
          <h1>Join your team</h1>
          <p className="muted">Choose a password to activate your account.</p>
        </div>
        <AcceptInvitationForm />
      </div>
    </main>
  );
}
