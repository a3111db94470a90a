import { redirect } from "next/navigation";
import { db } from "@/lib/db";
import { currentEmployee } from "@/lib/auth/current-employee";

export const dynamic = "force-dynamic";

// `/`: a fresh install opens on setup; afterwards sign-in or the dashboard.
export default async function Home() {
  if ((await db().employee.count()) === 0) redirect("/setup");
  redirect((await currentEmployee()) ? "/information-requests" : "/login");
}
