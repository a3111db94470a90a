import { redirect } from "next/navigation";
import { homeFor } from "@/components/nav-links";
import { db } from "@/lib/db";
import { currentEmployee } from "@/lib/auth/current-employee";

export const dynamic = "force-dynamic";

// `/`: a fresh install opens on setup; afterwards sign-in, or the first page the employee's role can use.
export default async function Home() {
  if ((await db().employee.count()) === 0) redirect("/setup");
  const session = await currentEmployee();
  redirect(session ? homeFor(session.permissions) : "/login");
}
