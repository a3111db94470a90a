import { createOrConflict, db } from "@/lib/db";
import { type Commit, commitWithoutAudit } from "@/lib/audit/trail";
import { newId } from "@/lib/ids/generate";
import { hashPassword } from "@/lib/auth/passwords";
import { createSession } from "@/lib/auth/sessions";
import { DomainError } from "@/lib/errors";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { createOwnerOnlyFileOnce, ensureOwnerOnlyDirectory, replaceOwnerOnlyFile } from "@/lib/db/owner-only";
import path from "node:path";
import { dataDirectory, env } from "@/lib/env";

const alreadySetUp = () => new DomainError("conflict", "This service is already set up; sign in instead");

/**
 * What POST /v1/setup checks before anything else costs time (no password is hashed for a wrong
 * token): setup is still open (409 once anyone exists), and the caller has the setup token (403,
 * compared in constant time, nothing else revealed).
 */
export async function authorizeSetup(setupToken: string) {
  if ((await db().employee.count()) > 0) throw alreadySetUp();
  if (!setupTokenMatches(setupToken)) {
    throw new DomainError(
      "forbidden",
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
      // The one row of the installation: of two setups at once (on one instance or several), the
      // primary key lets one through and the other is refused as already set up.
      await createOrConflict(
        () => tx.installation.create({ data: { id: "installation", setUpAt: new Date() } }),
        alreadySetUp,
      );
      const accountId = newId("acct");
      await tx.account.create({ data: { id: accountId, platformId: accountId, name: accountName } });
      const employee = await tx.employee.create({
        data: {
          id: newId("emp"),
          accountId,
          name,
          email,
          passwordHash,
          status: "active",
          role: "owner",
          lastLoginAt: new Date(),
        },
        include: { account: true },
      });
      return { employee, ...(await createSession({ employeeId: employee.id, ip })) };
    },
    ({ employee }) => ({
      type: "employee",
      id: employee.id,
      platformId: employee.account.platformId,
      accountId: employee.accountId,
    }),
  );
  forgetSetupToken();
  const { employee, session, cookie } = created;
  return { employee, account: employee.account, session, cookie };
}

/**
 * The token first-run setup needs: SETUP_TOKEN when set; otherwise one generated into the data
 * directory (`setup-token`, mode 0600) by the first process that asks, so every request of this
 * process, and of any other process on the same data directory, sees the same token. The file is
 * removed once setup is done.
 */
export function currentSetupToken(): string {
  const configured = env().SETUP_TOKEN;
  if (configured) return configured;
  const file = setupTokenFile();
  const stored = readToken(file);
  if (stored) return stored;
  ensureOwnerOnlyDirectory(path.dirname(file));
  const token = randomBytes(32).toString("base64url");
  // Complete or absent to every other process; if another one created it first, theirs is used.
  if (createOwnerOnlyFileOnce(file, token + "\n")) return token;
  const theirs = readToken(file);
  if (theirs) return theirs;
  // A file with no usable token in it (an older version's crash between create and write): replace it.
  replaceOwnerOnlyFile(file, token + "\n");
  return token;
}

/** Whether the token was generated here (and may be printed), rather than set by the operator. */
export function setupTokenIsGenerated(): boolean {
  return !env().SETUP_TOKEN;
}

/** Compares in constant time (both sides hashed first, so their lengths leak nothing either). */
export function setupTokenMatches(given: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  return timingSafeEqual(digest(given), digest(currentSetupToken()));
}

/** Setup is done: the generated token is deleted (SETUP_TOKEN stays, but setup answers 409 from now on). */
export function forgetSetupToken() {
  rmSync(setupTokenFile(), { force: true });
}

export function setupTokenFile(): string {
  return path.join(dataDirectory(), "setup-token");
}

function readToken(file: string): string | null {
  try {
    const token = readFileSync(file, "utf8").trim();
    return token.length >= 32 ? token : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * The setup page's address for the log: APP_ORIGIN when set, else http://localhost:<PORT> (with
 * PORT=0 the port is only known once the server listens, so the link says `<port>`).
 */
export function setupLink(token?: string): string {
  const { APP_ORIGIN, PORT } = env();
  const origin = APP_ORIGIN ? new URL(APP_ORIGIN).origin : `http://localhost:${PORT === 0 ? "<port>" : PORT}`;
  return token === undefined ? `${origin}/setup` : `${origin}/setup?token=${encodeURIComponent(token)}`;
}
