import type { Actor } from "@/lib/auth/actor";
import type { Permission } from "@/lib/auth/permissions";
import { ApiError } from "@/lib/http/api-error";

/** 403 `err_forbidden` naming the permission the caller lacks, in words that say why. */
export function assertPermission(actor: Actor, permission: Permission) {
  if (actor.permissions.includes(permission)) return;
  const who = actor.type === "employee" ? `Your role (${actor.role}) does not allow this` : "This API key does not allow this";
  throw new ApiError("err_forbidden", `${who}: it needs the ${permission} permission`, { permission });
}

/**
 * What the route wrapper checks once the caller is known, before reading the body: the platform's
 * two-factor requirement, the endpoint's permission, and a sub-account key's reach.
 */
export function authorize(definition: { permission: Permission | null; platformWide?: boolean; beforeTwoFactor?: boolean }, actor: Actor) {
  if (actor.type === "employee" && actor.settings.requireTwoFactor && !actor.twoFactorEnabled && !definition.beforeTwoFactor) {
    throw new ApiError("err_two_factor_required", "This platform requires two-factor authentication: set up an authenticator app first");
  }
  if (definition.permission) assertPermission(actor, definition.permission);
  if (definition.platformWide && actor.confined) {
    throw new ApiError("err_forbidden", "This API key acts for one account only, and this route covers the whole platform");
  }
}
