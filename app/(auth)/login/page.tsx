import { redirect } from "next/navigation";
import { db } from "@/lib/db";
import { homeFor } from "@/components/nav-links";
import { currentEmployee } from "@/lib/auth/current-employee";
import { safeNextPath } from "@/lib/auth/next-path";
import { SsoSignIn } from "@/components/sso/sso-sign-in";
import { ssoSignInHint } from "@/lib/sso/connection";
import { SignInForm } from "./sign-in-form";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in" };

/**
 * `?next=`: the page to return to after sign-in (a deep link that found the employee signed out).
 * `?sso_error=`: why single sign-on did not sign the employee in.
 */
export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string | string[]; sso_error?: string | string[] }>;
}) {
  if ((await db().employee.count()) === 0) redirect("/setup");
  const { next, sso_error: ssoError } = await searchParams;
  const returnTo = safeNextPath(typeof next === "string" ? next : null);
  const session = await currentEmployee();
  if (session) redirect(returnTo ?? homeFor(session.permissions));
  return (
    <main className="center-page">
      <div className="card stack">
        <h1>Sign in</h1>
        <SsoSignIn
          hint={await ssoSignInHint()}
          returnTo={returnTo}
          error={typeof ssoError === "string" ? ssoError.slice(0, 300) : null}
        >
          <SignInForm returnTo={returnTo} />
        </SsoSignIn>
        <p className="muted" style={{ margin: 0 }}>
          Forgot your password? An owner or admin of your platform can give you a link to set a new one.
        </p>
      </div>
    </main>
  );
}
