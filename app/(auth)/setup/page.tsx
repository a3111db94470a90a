import { redirect } from "next/navigation";
import { db } from "@/lib/db";
import { SetupForm } from "./setup-form";

export const dynamic = "force-dynamic";
export const metadata = { title: "Set up" };

// First run only: once anyone exists, setup is closed and this page sends people to sign in.
// The link the server prints at start carries the setup token (?token=...), which fills the form in.
export default async function SetupPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  if ((await db().employee.count()) > 0) redirect("/login");
  const { token } = await searchParams;
  const linkToken = typeof token === "string" && token.trim() ? token.trim() : undefined;
  return (
    <main className="center-page">
      <div className="card stack">
        <div>
          <h1>Set up Platform Compliance</h1>
          <p className="muted">
            Create your platform and the first employee account. You will set up two-factor authentication next.
          </p>
        </div>
        <SetupForm linkToken={linkToken} />
      </div>
    </main>
  );
}
