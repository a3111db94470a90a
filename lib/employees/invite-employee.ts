import { createOrConflict } from "@/lib/db";
import { newId } from "@/lib/ids";
import { randomToken, sha256 } from "@/lib/auth/tokens";
import { ApiError } from "@/lib/http/api-error";
import { employeeSchema, presentEmployee } from "@/lib/employees/schemas";
import type { Role } from "@/lib/auth/permissions";
import { tenantDb } from "@/lib/tenancy";
import { emitResourceEvent } from "@/lib/webhooks/emit";

export const INVITATION_LIFETIME_MS = 7 * 86_400_000;

/**
 * Invites an employee to the scope's platform. The link's token (256 random bits) is returned
 * this once; only its SHA-256 is stored, so a database reader cannot accept an invitation.
 */
export async function inviteEmployee({ name, email, role, origin }: { name: string; email: string; role: Role; origin: string }) {
  const address = email.trim().toLowerCase();
  const token = randomToken(32);
  const invitationExpiresAt = new Date(Date.now() + INVITATION_LIFETIME_MS);
  // Sign-in is by e-mail alone, so addresses are unique across the whole service, not per platform:
  // the unique index on e-mail refuses one in use on any platform.
  const row = await createOrConflict(
    () =>
      tenantDb().employee.create({
        data: {
          id: newId("emp"),
          accountId: "", // set by the tenancy confinement: the platform's own account
          name,
          email: address,
          status: "invited",
          role,
          invitationTokenHash: sha256(token),
          invitationExpiresAt,
        },
      }),
    () => new ApiError("err_conflict", "An employee with this e-mail address already exists", { email: "is already in use" }),
  );
  // The employee as GET /v1/employees/{id} shows them: never the invitation link or its token.
  await emitResourceEvent("employee.invited", employeeSchema, presentEmployee(row), { accountId: row.accountId });
  const invitationUrl = new URL("/invitations/accept", origin);
  invitationUrl.searchParams.set("token", token);
  return { ...presentEmployee(row), invitationUrl: invitationUrl.toString(), invitationExpiresAt };
}
