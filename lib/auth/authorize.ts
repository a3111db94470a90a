import type { Actor } from "@/lib/auth/actor";
import { missingReadPermission, type Permission, type Role } from "@/lib/auth/permissions";
import { DomainError } from "@/lib/errors";

/** What a permission check needs of the caller (an Actor is one). */
export type PermissionHolder =
  | { type: "api_key"; permissions: readonly Permission[] }
  | { type: "employee"; role: Role; permissions: readonly Permission[] };

const whoIs = (actor: PermissionHolder) => (actor.type === "employee" ? `Your role (${actor.role})` : "This API key");

/** 403 `err_forbidden` naming the permission the caller lacks, in words that say why. */
export function assertPermission(actor: Actor, permission: Permission) {
  if (actor.permissions.includes(permission)) return;
  throw new DomainError("forbidden", `${whoIs(actor)} does not allow this: it needs the ${permission} permission`, {
    permission,
  });
}

/**
 * 403 `err_forbidden` unless the caller may read what a derived view shows (lib/auth/permissions.ts,
 * missingReadPermission), naming the first read permission it lacks. `doing` says what was refused
 * ("subscribe to kyc.profile.updated").
 */
export function assertMaySeeDerived(
  actor: PermissionHolder,
  shown: Iterable<string>,
  doing: (shown: string) => string,
) {
  for (const item of shown) {
    const permission = missingReadPermission(actor, item);
    if (permission) {
      throw new DomainError(
        "forbidden",
        `${whoIs(actor)} may not ${doing(item)}: it needs the ${permission} permission to see that data`,
        { permission },
      );
    }
  }
}

/**
 * What the route wrapper checks once the caller is known, before reading the body: the platform's
 * two-factor requirement, the endpoint's permission, and a sub-account key's reach.
 */
export function authorize(
  definition: { permission: Permission | null; platformWide?: boolean; beforeTwoFactor?: boolean },
  actor: Actor,
) {
  if (
    actor.type === "employee" &&
    actor.settings.requireTwoFactor &&
    !actor.twoFactorEnabled &&
    !actor.viaSso &&
    !definition.beforeTwoFactor
  ) {
    throw new DomainError(
      "two_factor_required",
      "This platform requires two-factor authentication: set up an authenticator app first",
    );
  }
  if (definition.permission) assertPermission(actor, definition.permission);
  if (definition.platformWide && actor.confined) {
    throw new DomainError(
      "forbidden",
      "This API key acts for one account only, and this route covers the whole platform",
    );
  }
}
