import { redirect } from "next/navigation";
import { db } from "@/lib/db";
import { SetupForm } from "./setup-form";

export const dynamic = "force-dynamic";
export const metadata = { title: "Set up" };

// First run only: once anyone exists, setup is closed and this page sends people to sign in.
export default async function SetupPage() {
  if ((await db().employee.count()) > 0) redirect("/login");
  return (
    <main className="center-page">
      <div className="card stack">
        <div>
          <h1>Set up Platform Compliance</h1>
          <p className="muted">Create your platform and the first employee account. You will set up two-factor authentication next.</p>
        </div>
        <SetupForm />
      </div>
    </main>
  );
}
