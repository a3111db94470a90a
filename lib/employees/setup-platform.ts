import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { hashPassword } from "@/lib/auth/passwords";
import { createSession } from "@/lib/auth/sessions";
import { ApiError } from "@/lib/http/api-error";

/** First run: creates the platform account and its first employee, and signs them in. Only while nobody exists. */
export async function setupPlatform({
  accountName,
  name,
  email,
  password,
  ip,
}: {
  accountName: string;
  name: string;
  email: string;
  password: string;
  ip: string | null;
}) {
  const done = () => new ApiError("err_conflict", "This service is already set up; sign in instead");
  if ((await db().employee.count()) > 0) throw done();
  const passwordHash = await hashPassword(password);
  const employee = await db().$transaction(async (tx) => {
    if ((await tx.employee.count()) > 0) throw done();
    const accountId = newId("acct");
    await tx.account.create({ data: { id: accountId, platformId: accountId, name: accountName } });
    return tx.employee.create({
      data: { id: newId("emp"), accountId, name, email, passwordHash, status: "active", role: "owner", lastLoginAt: new Date() },
      include: { account: true },
    });
  });
  const { session, cookie } = await createSession({ employeeId: employee.id, ip });
  return { employee, account: employee.account, session, cookie };
}
