import { redirect } from "next/navigation";
import { db } from "@/lib/db";
import { homeFor } from "@/components/nav-links";
import { currentEmployee } from "@/lib/auth/current-employee";
import { SignInForm } from "./sign-in-form";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in" };

export default async function LoginPage() {
  if ((await db().employee.count()) === 0) redirect("/setup");
  const session = await currentEmployee();
  if (session) redirect(homeFor(session.permissions));
  return (
    <main className="center-page">
      <div className="card stack">
        <h1>Sign in</h1>
        <SignInForm />
      </div>
    </main>
  );
}
