import { presentSettings } from "@/lib/settings/schemas";
import { currentScope, tenantDb } from "@/lib/tenancy";

// Platform settings live on the platform's own account (Account.requireTwoFactor, fourEyesApproval).

export async function getPlatformSettings() {
  return presentSettings(await tenantDb().account.findUniqueOrThrow({ where: { id: currentScope().platformId } }));
}

export async function updatePlatformSettings(changes: { requireTwoFactor?: boolean; fourEyesApproval?: boolean }) {
  return presentSettings(await tenantDb().account.update({ where: { id: currentScope().platformId }, data: changes }));
}
