import { inTransaction } from "@/lib/db";
import { presentSettings, settingsColumns, type UpdateSettingsInput } from "@/lib/settings/schemas";
import { currentScope, tenantDb } from "@/lib/tenancy";

// Platform settings live on the platform's own account (Account.requireTwoFactor, fourEyesApproval, slaHours*).

export async function getPlatformSettings() {
  return presentSettings(await tenantDb().account.findUniqueOrThrow({ where: { id: currentScope().platformId } }));
}

/** Changes the settings; `before` is what they were, for the audit trail. */
export async function updatePlatformSettings(changes: UpdateSettingsInput) {
  return inTransaction(async () => {
    const tx = tenantDb();
    // Read in the change's own transaction. It decides nothing: two concurrent changes may both name the
    // same `before`, and the audit trail's order still says which came last.
    const before = presentSettings(await tx.account.findUniqueOrThrow({ where: { id: currentScope().platformId } }));
    const settings = presentSettings(
      await tx.account.update({ where: { id: currentScope().platformId }, data: settingsColumns(changes) }),
    );
    return { settings, before };
  });
}
