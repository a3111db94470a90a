import { createHash } from "node:crypto";
import { db, isUniqueViolation } from "@/lib/db";
import { decryptSecret, encryptSecret } from "@/lib/auth/encryption";
import { idempotencyContext } from "@/lib/auth/secrets-at-rest";
import { ApiError } from "@/lib/http/api-error";

// Idempotency-Key on POST (docs/api.md, Idempotency): the first response to a key is
// kept 24 hours per credential, in the database, so a retry after a timeout, a restart or on
// another instance gets that response again instead of doing the work twice.

const KEPT_MS = 24 * 60 * 60 * 1000;
/** A claim this old with no response is taken to belong to a process that died mid-request. */
const ABANDONED_MS = 5 * 60 * 1000;
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** A request's hold on a key: `startedAt` tells it from a later takeover of the same key. */
export type IdempotencyClaim = { credential: string; key: string; startedAt: Date };
export type StoredResponse = { status: number; body: unknown };
/** What is kept of a response: all of it, or, when it held a secret shown once, only that it did. */
export type KeptResponse = StoredResponse | { status: number; heldSecret: true };

/** The header's value, or null when there is none; 400 when it is not 1 to 255 printable characters. */
export function idempotencyKeyOf(request: Request): string | null {
  const key = request.headers.get("idempotency-key");
  if (key === null) return null;
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError("err_bad_request", "Idempotency-Key must be 1 to 255 printable ASCII characters");
  }
  return key;
}

/** What a repeat must match: the same method, path and query, account and body. */
export function fingerprintOf(parts: {
  method: string;
  url: string;
  serviceAccountId: string | null;
  body: string;
}): string {
  const { pathname, search } = new URL(parts.url);
  return createHash("sha256")
    .update(JSON.stringify([parts.method, pathname + search, parts.serviceAccountId ?? "", parts.body]))
    .digest("hex");
}

/**
 * Claims `key` for this request. Returns the kept response when the key was used before with the
 * same request (the caller replays it), or the claim when this request should run (the caller settles it). A different request
 * under the same key is 422 err_idempotency_mismatch; one still running is 409; one whose response held a
 * secret shown once is 409 err_idempotency_secret (that secret is never shown twice).
 */
export async function claimIdempotencyKey(
  claim: Omit<IdempotencyClaim, "startedAt"> & { fingerprint: string },
  now = new Date(),
): Promise<{ kept: StoredResponse } | { claim: IdempotencyClaim }> {
  const { credential, key, fingerprint } = claim;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      await db().idempotencyKey.create({
        data: { credential, key, fingerprint, startedAt: now, expiresAt: new Date(now.getTime() + KEPT_MS) },
      });
      // Expired keys go as new ones arrive (indexed by expiry, so this stays cheap).
      await db().idempotencyKey.deleteMany({ where: { expiresAt: { lt: now } } });
      return { claim: { credential, key, startedAt: now } };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const existing = await db().idempotencyKey.findUnique({ where: { credential_key: { credential, key } } });
    if (!existing) continue; // released in between: try the insert again
    if (existing.expiresAt <= now) {
      await db().idempotencyKey.deleteMany({ where: { credential, key, expiresAt: existing.expiresAt } });
      continue;
    }
    if (existing.fingerprint !== fingerprint) {
      throw new ApiError(
        "err_idempotency_mismatch",
        "This Idempotency-Key was already used for a different request; use a new key for a new request",
      );
    }
    if (existing.heldSecret) {
      throw new ApiError(
        "err_idempotency_secret",
        "That response held a secret shown once; look the object up instead",
      );
    }
    if (existing.status !== null && existing.body !== null) {
      return {
        kept: { status: existing.status, body: JSON.parse(decryptSecret(existing.body, idempotencyContext(claim))) },
      };
    }
    if (now.getTime() - existing.startedAt.getTime() < ABANDONED_MS) {
      throw new ApiError("err_conflict", "A request with this Idempotency-Key is still being processed; retry shortly");
    }
    // Abandoned by a process that stopped mid-request: take it over, unless another retry just did.
    const taken = await db().idempotencyKey.updateMany({
      where: { credential, key, startedAt: existing.startedAt, status: null },
      data: { startedAt: now },
    });
    if (taken.count === 1) return { claim: { credential, key, startedAt: now } };
    throw new ApiError("err_conflict", "A request with this Idempotency-Key is still being processed; retry shortly");
  }
  throw new ApiError("err_conflict", "A request with this Idempotency-Key is still being processed; retry shortly");
}

/**
 * Keeps the response for repeats. Called in the request's own transaction when there is one, so the
 * change and its kept response commit together. Encrypted all the same; a response that held a secret
 * shown once keeps no body at all, only the mark that refuses its repeats.
 */
export async function completeIdempotencyKey(claim: IdempotencyClaim, response: KeptResponse) {
  // Only while the claim is still this request's: a request so slow that its claim was taken over as
  // abandoned leaves the key to the one that took it (whose response is the one repeats get).
  await db().idempotencyKey.updateMany({
    where: { credential: claim.credential, key: claim.key, startedAt: claim.startedAt, status: null },
    data:
      "heldSecret" in response
        ? { status: response.status, body: null, heldSecret: true }
        : { status: response.status, body: encryptSecret(JSON.stringify(response.body), idempotencyContext(claim)) },
  });
}

/** Lets the key be used again: the request never ran, or failed in a way a retry may fix (never another's takeover). */
export async function releaseIdempotencyKey(claim: IdempotencyClaim) {
  await db().idempotencyKey.deleteMany({
    where: { credential: claim.credential, key: claim.key, startedAt: claim.startedAt, status: null },
  });
}
