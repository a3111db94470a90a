import { db, inTransaction, lockRow, readLocked } from "@/lib/db";
import type { Actor } from "@/lib/auth/actor";
import { assertMaySeeDerived, assertPermission } from "@/lib/auth/authorize";
import type { Role } from "@/lib/auth/permissions";
import { DomainError, notFound } from "@/lib/errors";
import { employeeSchema, presentEmployee } from "@/lib/employees/schemas";
import {
  assertMayRevoke,
  credentialIds,
  findCreatedCredentials,
  revokeCreatedCredentials,
} from "@/lib/employees/created-credentials";
import { scopePlatformId, tenantDb } from "@/lib/tenancy";
import { changeOnce } from "@/lib/webhooks/events";

// tenantDb() confines Employee queries to the scope's platform account, so another platform's
// employee is simply not found (404, never 403).

/** The platform's employees, oldest first. */
export async function listEmployees() {
  const rows = await tenantDb().employee.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(presentEmployee);
}

async function findRow(id: string) {
  const row = await tenantDb().employee.findUnique({ where: { id } });
  if (!row) throw notFound("Employee");
  return row;
}

export async function findEmployee({ id }: { id: string }) {
  return presentEmployee(await findRow(id));
}

/** Giving a role: any role but viewer needs `roles`, and owner also `owners` (admins cannot make owners). */
export function assertMayGrant(actor: Actor, role: Role) {
  if (role !== "viewer") assertPermission(actor, "roles");
  if (role === "owner") assertPermission(actor, "owners");
}

const lastOwner = () =>
  new DomainError("conflict", "This is the platform's last active owner: make someone else an owner first", {
    role: "last active owner",
  });

/**
 * Runs `change` (which may take an active owner away) holding the platform account's row, which every
 * such change takes first (lockRow), and then checks an active owner is left: two admins demoting the
 * last two owners at once run one after the other, and the second finds no owner left (409). `change`
 * reads what it decides on after the lock, so it sees what the other committed.
 */
async function keepingAnOwner<T>(platformId: string, change: () => Promise<T>) {
  return inTransaction(async () => {
    await lockRow("Account", platformId, "change");
    const result = await change();
    if ((await db().employee.count({ where: { accountId: platformId, role: "owner", status: "active" } })) === 0)
      throw lastOwner();
    return result;
  });
}

/** Changes an employee's role. To or from owner needs `owners`; the last active owner keeps the role (409). */
export async function changeEmployeeRole({ actor, id, role }: { actor: Actor; id: string; role: Role }) {
  return keepingAnOwner(scopePlatformId(), async () => {
    const row = await findRow(id);
    if (row.status === "deactivated")
      throw new DomainError("conflict", "This employee is deactivated", { role: "employee is deactivated" });
    const from = row.role;
    assertMayGrant(actor, role);
    if (from === "owner") assertPermission(actor, "owners");
    // The role it replaced, for the audit trail.
    const before = { role: from };
    if (from === role) return { employee: presentEmployee(row), before };
    const updated = await tenantDb().employee.update({ where: { id: row.id }, data: { role } });
    return { employee: presentEmployee(updated), before };
  });
}

/**
 * Offboards an employee: deactivated, every session ended at once, any invitation or reset link dead.
 * Sign-in then answers as for a wrong password. Deactivating an owner needs `owners`; the last active
 * owner cannot be deactivated (409). Deactivating twice changes nothing more.
 *
 * Answers the employee with `createdCredentials`: the keys and endpoints they created that still work
 * (lib/employees/created-credentials.ts). With `revokeCredentials` those are revoked and disabled in
 * the same transaction as the deactivation (the request's), and the answer names what was; on an
 * employee already deactivated it still revokes what is left, so an admin can clean up afterwards.
 */
export async function deactivateEmployee({
  actor,
  id,
  revokeCredentials = false,
  now = new Date(),
}: {
  actor: Actor;
  id: string;
  revokeCredentials?: boolean;
  now?: Date;
}) {
  return keepingAnOwner(scopePlatformId(), async () => {
    // Held until the transaction ends: a key or endpoint this employee is creating right now (which
    // holds the row shared, lib/auth/creator.ts) commits before the search below, or is refused after.
    const row = await readLocked("Employee", "change", () => findRow(id));
    if (row.role === "owner") assertPermission(actor, "owners");
    // The status it replaced, for the audit trail.
    const before = { status: row.status };
    const credentials = await findCreatedCredentials({
      platformId: row.accountId,
      employeeId: row.id,
      now,
      lockMakers: true,
    });
    if (revokeCredentials) assertMayRevoke(actor, credentials);
    // Revoked first, so the endpoints being disabled do not hear of the deactivation either.
    const createdCredentials = revokeCredentials
      ? await revokeCreatedCredentials(credentials, now)
      : credentialIds(credentials);
    const employee = row.status === "deactivated" ? presentEmployee(row) : await deactivateRow(row, now);
    return { employee: { ...employee, createdCredentials }, before };
  });
}

function deactivateRow(row: { id: string; accountId: string }, now: Date) {
  return changeOnce("employee.deactivated", employeeSchema, {
    change: async () => {
      // Conditional, so of two concurrent deactivations only one makes the change (and tells).
      const changed = await db().employee.updateMany({
        where: { id: row.id, status: { not: "deactivated" } },
        // The status change moves the employee's security stamp, which ends every link issued to them.
        data: { status: "deactivated", deactivatedAt: now },
      });
      await db().session.updateMany({ where: { employeeId: row.id, revokedAt: null }, data: { revokedAt: now } });
      return changed;
    },
    reread: async () => presentEmployee(await findRow(row.id)),
    accountId: row.accountId,
  });
}

/**
 * What deactivating would list (GET /v1/employees/{id}/credentials), with what people recognise a
 * key or an endpoint by. A view derived from keys and endpoints: the caller must be able to read
 * both (403 naming the permission), besides the route's employees:read.
 */
export async function listEmployeeCredentials({
  actor,
  id,
  now = new Date(),
}: {
  actor: Actor;
  id: string;
  now?: Date;
}) {
  assertMaySeeDerived(actor, ["api_keys:read", "webhooks:read"], () => "list the credentials an employee created");
  const row = await findRow(id);
  const { apiKeys, webhookEndpoints } = await findCreatedCredentials({
    platformId: row.accountId,
    employeeId: row.id,
    now,
  });
  // Found by who created them, so both are set.
  const creator = (credential: { createdByType: "employee" | "api_key" | null; createdById: string | null }) => ({
    type: credential.createdByType!,
    id: credential.createdById!,
  });
  return {
    apiKeys: apiKeys.map((key) => ({
      id: key.id,
      accountId: key.accountId,
      name: key.name,
      prefix: key.prefix,
      expiresAt: key.expiresAt,
      createdAt: key.createdAt,
      createdBy: creator(key),
    })),
    webhookEndpoints: webhookEndpoints.map((endpoint) => ({
      id: endpoint.id,
      accountId: endpoint.accountId,
      url: endpoint.url,
      description: endpoint.description,
      createdAt: endpoint.createdAt,
      createdBy: creator(endpoint),
    })),
  };
}

/**
 * Turns off another employee's 2FA (a lost phone): secret, pending enrolment and recovery codes are
 * gone (passkeys too) and their sessions end, so they sign in with their password and enrol again. An owner's needs `owners`.
 */
export async function resetEmployeeTwoFactor({ actor, id }: { actor: Actor; id: string }) {
  return inTransaction(async () => {
    // The employee's row held: a role change committing meanwhile (to owner, say, which would need
    // `owners` here) comes before this read or after the reset.
    const row = await readLocked("Employee", "change", () => findRow(id));
    if (row.id === actor.id) {
      throw new DomainError(
        "forbidden",
        "You cannot turn off your own two-factor authentication; ask another admin or owner",
      );
    }
    if (row.role === "owner") assertPermission(actor, "owners");
    if (row.status === "deactivated") throw new DomainError("conflict", "This employee is deactivated");
    const now = new Date();
    const updated = await db().employee.update({
      where: { id: row.id },
      data: { totpSecret: null, totpPendingSecret: null, totpEnabledAt: null, totpLastStep: null },
    });
    await db().recoveryCode.deleteMany({ where: { employeeId: row.id } });
    // A passkey is a second factor too, possibly on the device that was lost: it goes with the rest.
    await db().passkey.deleteMany({ where: { employeeId: row.id } });
    await db().session.updateMany({ where: { employeeId: row.id, revokedAt: null }, data: { revokedAt: now } });
    return { employee: presentEmployee(updated), before: { twoFactorEnabled: row.totpEnabledAt !== null } };
  });
}
