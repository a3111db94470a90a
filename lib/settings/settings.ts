import { inTransaction } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { presentSettings, settingsColumns, type UpdateSettingsInput } from "@/lib/settings/schemas";
import { findSsoConnection, presentSso, saveSsoConnection } from "@/lib/sso/connection";
import { currentScope, tenantDb } from "@/lib/tenancy";

// Platform settings live on the platform's own account (Account.requireTwoFactor, fourEyesApproval, slaHours*),
// single sign-on in the platform's SsoConnection (lib/sso/connection.ts).

export async function getPlatformSettings() {
  const { platformId } = currentScope();
  const [account, sso] = await Promise.all([
    tenantDb().account.findUniqueOrThrow({ where: { id: platformId } }),
    findSsoConnection(platformId),
  ]);
  return { ...presentSettings(account), sso: presentSso(sso) };
}

/**
 * Changes the settings; `before` is what they were, for the audit trail. Single sign-on and retention are
 * the owners' alone (`byOwner`: the caller holds the `owners` permission).
 */
export async function updatePlatformSettings(
  changes: UpdateSettingsInput,
  { byOwner = false }: { byOwner?: boolean } = {},
) {
  if (changes.sso !== undefined && !byOwner) {
    throw new DomainError("forbidden", "Only owners may change single sign-on", { permission: "owners" });
  }
  if (changes.retention !== undefined && !byOwner) {
    throw new DomainError("forbidden", "Only owners may change how long data is kept", { permission: "owners" });
  }
  return inTransaction(async () => {
    const tx = tenantDb();
    const { platformId } = currentScope();
    // Read in the change's own transaction. It decides nothing: two concurrent changes may both name the
    // same `before`, and the audit trail's order still says which came last.
    const account = await tx.account.findUniqueOrThrow({ where: { id: platformId } });
    const sso =
      changes.sso === undefined
        ? { before: presentSso(await findSsoConnection(platformId)), after: undefined }
        : await saveSsoConnection(platformId, changes.sso);
    const updated = await tx.account.update({ where: { id: platformId }, data: settingsColumns(changes) });
    return {
      settings: { ...presentSettings(updated), sso: sso.after === undefined ? sso.before : sso.after },
      before: { ...presentSettings(account), sso: sso.before },
    };
  });
}
