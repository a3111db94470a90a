import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { createPlatform } from "@/lib/accounts/platforms";
import { hashPassword } from "@/lib/auth/passwords";
import { createSession } from "@/lib/auth/sessions";
import { issueApiKey } from "@/lib/api-keys/api-keys";
import { createKycSubmission } from "@/lib/kyc/submissions";
import { confirmTotpEnrolment, startTotpEnrolment } from "@/lib/auth/two-factor";
import { Authenticator } from "@/lib/testing/http";
import type { Role } from "@/lib/auth/permissions";
import { expect } from "vitest";
import { tenantDb, withScope, type Scope } from "@/lib/tenancy";

export const PASSWORD = "correct horse battery staple";
let passwordHash: Promise<string> | undefined;
let counter = 0;

/**
 * An active employee signed in: of a new platform, or of `platform` when given; its owner unless
 * `role` says otherwise. With `totp`, 2FA enrolled through the real enrolment code.
 */
export async function signedInEmployee({
  totp = false,
  ip = "127.0.0.1",
  role = "owner",
  platform,
}: { totp?: boolean; ip?: string; role?: Role; platform?: { id: string } } = {}) {
  counter += 1;
  const account = platform
    ? await db().account.findUniqueOrThrow({ where: { id: platform.id } })
    : await createPlatform({ name: `Platform ${counter}` });
  passwordHash ??= hashPassword(PASSWORD);
  const employee = await db().employee.create({
    data: {
      id: newId("emp"),
      accountId: account.id,
      name: `Employee ${counter}`,
      email: `employee${counter}.${account.id}@example.com`,
      passwordHash: await passwordHash,
      status: "active",
      role,
    },
  });
  const { cookie } = await createSession({ employeeId: employee.id, ip });
  const session = /=([^;]*)/.exec(cookie)![1]!;
  let authenticator: Authenticator | undefined;
  let recoveryCodes: string[] = [];
  if (totp) {
    const { secret } = await startTotpEnrolment({ employeeId: employee.id, password: PASSWORD, ip });
    authenticator = new Authenticator(secret);
    recoveryCodes = (await confirmTotpEnrolment({ employeeId: employee.id, code: authenticator.nextCode() }))
      .recoveryCodes;
  }
  return { account, employee, session, authenticator, recoveryCodes, email: employee.email };
}

export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/**
 * Waits until the clock has left the current millisecond. Lists order by a millisecond timestamp, then
 * by the random id: two rows stamped in one millisecond come back in either order, so a test of that
 * order calls this between writing the earlier row and the later one.
 */
export async function nextMillisecond() {
  const now = Date.now();
  while (Date.now() <= now) await new Promise((resolve) => setTimeout(resolve, 1));
}

/** A key of the account, issued through the domain function the API uses. */
export async function apiKeyFor(
  accountId: string,
  options: Partial<Omit<Parameters<typeof issueApiKey>[0], "createdBy">> = {},
) {
  const account = await db().account.findUniqueOrThrow({ where: { id: accountId } });
  return withScope({ platformId: account.platformId, accountId }, () =>
    issueApiKey({ createdBy: null, expiresAt: options.expiresAt ?? inDays(30), ...options }),
  );
}

/** For a walk's key, which sends hundreds of requests a second: its rate limit is not what it tests. */
export const UNHURRIED = { requests: 100_000, perSeconds: 1 } as const;

/** A new platform (tenant) and a working API key for it: the quickest caller for API tests. */
export async function platformWithKey(
  options: Pick<Parameters<typeof apiKeyFor>[1] & object, "cidrAllowlist" | "permissions" | "rateLimit"> = {},
) {
  counter += 1;
  const account = await createPlatform({ name: `Platform ${counter}` });
  const key = await apiKeyFor(account.id, options);
  return { account, key, apiKey: key.secret, scope: { platformId: account.id, accountId: account.id } };
}

/** A platform with a key, a sub-account ("Sub"), and a KYC submission with one owner in the sub-account. */
export async function subAccountSubmission() {
  const { apiKey, account } = await platformWithKey();
  const sub = await db().account.create({
    data: { id: newId("acct"), platformId: account.id, parentId: account.id, name: "Sub" },
  });
  const submission = await withScope({ platformId: account.id, accountId: sub.id }, () =>
    createKycSubmission({
      type: "business",
      beneficiaries: [{ type: "individual", country: "NL", roles: ["ubo"], shareSize: 100 }],
    }),
  );
  return { apiKey, sub, submission };
}

/**
 * A pending transfer of the scope's account, written straight to the data model (its recipient is a
 * placeholder): for tests of what refers to a transfer, which then depend on nothing in lib/transfers.
 */
export const bareTransferIn = (scope: Scope) =>
  // async/await: a Prisma query is lazy and would otherwise run when awaited, outside the scope.
  withScope(
    scope,
    async () =>
      await tenantDb().transfer.create({
        data: {
          id: newId("tr"),
          accountId: scope.accountId,
          recipientId: "rcp_x",
          amount: "10.00",
          currency: "EUR",
          status: "pending",
        },
      }),
  );

/** An information request as the API answers it once raised: requested, with no reviewer and no decision yet. */
export function raisedRequest(fields: {
  id: unknown;
  kind: string;
  transferId: string | null;
  submissionId: string | null;
  createdAt: unknown;
}) {
  return {
    ...fields,
    status: "requested",
    updatedAt: expect.any(String),
    reviewerId: null,
    reviewStartedAt: null,
    decidedById: null,
    decidedAt: null,
    decisionReason: null,
    decisionReasonCode: null,
    assigneeId: null,
    priority: "normal",
    dueAt: null,
    overdue: false,
  };
}
