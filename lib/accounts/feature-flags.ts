import { DomainError } from "@/lib/errors";
import { findAccount } from "@/lib/accounts/accounts";
import { presentAccount, type FeatureFlags } from "@/lib/accounts/schemas";
import { jsonObject, jsonStringRecord } from "@/lib/db/json";
import { tenantDb } from "@/lib/tenancy";

const MAX_ATTEMPTS = 5;

export async function readFeatureFlags({ accountId }: { accountId: string }) {
  return presentAccount(await findAccount(accountId)).featureFlags;
}

/**
 * Merges `featureFlags` into the account's stored map; flags not given keep their value. The write
 * is conditional on the map it was merged from (compare-and-swap), so two requests setting
 * different flags at the same time both take effect instead of one silently undoing the other.
 */
export async function updateFeatureFlags({
  accountId,
  featureFlags,
}: {
  accountId: string;
  featureFlags: FeatureFlags;
}) {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const account = await findAccount(accountId);
    const merged = { ...jsonStringRecord(account.featureFlags), ...featureFlags };
    const { count } = await tenantDb().account.updateMany({
      where: { id: account.id, featureFlags: { equals: jsonObject(account.featureFlags) } },
      data: { featureFlags: merged },
    });
    if (count === 1) return presentAccount({ ...account, featureFlags: merged });
  }
  throw new DomainError("conflict", "The feature flags kept changing while this update was applied; try again");
}
