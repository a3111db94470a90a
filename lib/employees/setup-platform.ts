import { db } from "@/lib/db";
import { commitWithoutAudit, type Commit } from "@/lib/audit/record-audit-event";
import { newId } from "@/lib/ids";
import { hashPassword } from "@/lib/auth/passwords";
import { createSession } from "@/lib/auth/sessions";
import { ApiError } from "@/lib/http/api-error";
import { forgetSetupToken, setupTokenMatches } from "@/lib/employees/setup-token";

const alreadySetUp = () => new ApiError("err_conflict", "This service is already set up; sign in instead");

/**
 * What POST /v1/setup checks before anything else costs time (no password is hashed for a wrong
 * token): setup is still open (409 once anyone exists), and the caller has the setup token (403,
 * compared in constant time, nothing else revealed).
 */
export async function authorizeSetup(setupToken: string) {
  if ((await db().employee.count()) > 0) throw alreadySetUp();
  if (!setupTokenMatches(setupToken)) {
    throw new ApiError(
      "err_forbidden",
      "The setup token is wrong. Use SETUP_TOKEN, or the token or link the server printed to its log at start.",
      { setupToken: "is wrong" },
    );
  }
}

/**
 * First run: creates the platform account and its first employee, and signs them in. Only while
 * nobody exists; the API calls authorizeSetup first, the demo seed does not. Afterwards the
 * generated setup token is gone.
 */
export async function setupPlatform({
  accountName,
  name,
  email,
  password,
  ip,
  commit = commitWithoutAudit,
}: {
  accountName: string;
  name: string;
  email: string;
  password: string;
  ip: string | null;
  commit?: Commit;
}) {
  if ((await db().employee.count()) > 0) throw alreadySetUp();
  const passwordHash = await hashPassword(password);
  const created = await commit(
    async () => {
      const tx = db();
      if ((await tx.employee.count()) > 0) throw alreadySetUp();
      const accountId = newId("acct");
      await tx.account.create({ data: { id: accountId, platformId: accountId, name: accountName } });
      const employee = await tx.employee.create({
        data: { id: newId("emp"), accountId, name, email, passwordHash, status: "active", role: "owner", lastLoginAt: new Date() },
        include: { account: true },
      });
      return { employee, ...(await createSession({ employeeId: employee.id, ip })) };
    },
    ({ employee }) => ({ type: "employee", id: employee.id, platformId: employee.account.platformId, accountId: employee.accountId }),
  );
  forgetSetupToken();
  const { employee, session, cookie } = created;
  return { employee, account: employee.account, session, cookie };
}
