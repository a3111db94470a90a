import { createPlatform } from "@/lib/accounts/create-platform";
import { presentAccount } from "@/lib/accounts/schemas";
import { issueApiKey } from "@/lib/api-keys/api-keys";
import { withScope } from "@/lib/tenancy";

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
