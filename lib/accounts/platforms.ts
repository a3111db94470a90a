import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { presentAccount } from "@/lib/accounts/schemas";
import { issueApiKey } from "@/lib/api-keys/api-keys";
import { withScope } from "@/lib/tenancy";

/** A new tenant: an account that is its own platform. */
export async function createPlatform({ name }: { name: string }) {
  const id = newId("acct");
  return db().account.create({ data: { id, platformId: id, name } });
}

const KEY_LIFETIME_MS = 90 * 86_400_000;

/**
 * Sandbox: a separate platform (tenant) with a working key, so integrators can prove that one
 * platform cannot see another's data. The key is issued inside the new platform's own scope.
 */
export async function createSandboxPlatform({ accountName }: { accountName: string }) {
  const account = await createPlatform({ name: accountName });
  const apiKey = await withScope({ platformId: account.id, accountId: account.id }, () =>
    issueApiKey({ createdBy: null, name: "Sandbox", expiresAt: new Date(Date.now() + KEY_LIFETIME_MS) }),
  );
  return { account: presentAccount(account), apiKey };
}
