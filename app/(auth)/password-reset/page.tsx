import { PasswordResetForm } from "./reset-form";

export const metadata = { title: "Set a new password" };

// The link an administrator created for an employee who lost their password: choose a new one, then sign in.
export default function PasswordResetPage() {
  return (
    <main className="center-page">
      <div className="card stack">
        <div>
          <h1>Set a new password</h1>
          <p className="muted">Choose a new password. Every session of yours ends, and you sign in again with it.</p>
        </div>
        <PasswordResetForm />
      </div>
    </main>
  );
}
