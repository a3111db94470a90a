import { inTransaction } from "@/lib/db";
import { insertAuditEvent } from "@/lib/audit/store";
import { newId } from "@/lib/ids/generate";

export type AuditActor = { type: "employee" | "api_key"; id: string; platformId: string; accountId: string };

/**
 * Runs a flow's writes in one transaction that also holds the request's audit record (naming `actor`
 * when the wrapper could not know it: a sign-in, say; or a function of `work`'s result, for an actor it creates). The route wrapper hands one to each handler;
 * outside a request (tests, scripts) `commitWithoutAudit` just runs the transaction.
 */
export type Commit = <T>(work: () => Promise<T>, actor?: AuditActor | ((result: T) => AuditActor)) => Promise<T>;

export const commitWithoutAudit: Commit = (work) => inTransaction(work);

export type AuditEventInput = {
  actor: AuditActor | null;
  /** The platform of a record without an actor (the service's own doing, such as the webhook worker's); else the actor's. */
  platformId?: string | null;
  /** The account the request acted for (Service-Account-Id's, or the caller's own); null before a scope was known. */
  actedForAccountId?: string | null;
  action: string;
  targetId: string | null;
  ip: string | null;
  status: number;
  /** The server's own id of the request (`req_...`). */
  requestId: string;
  /** The client's X-Request-Id, when it sent a sane one: kept apart, since the client chooses it. */
  clientRequestId?: string | null;
  /** Non-secret context only (never passwords, codes, tokens or key secrets). */
  details?: Record<string, unknown>;
};

/**
 * Appends one record to the audit trail, in the caller's transaction when there is one (a change and
 * its record commit together). Throws when it cannot. Triggers in the database refuse any later edit or deletion.
 */
export async function writeAuditEvent(event: AuditEventInput) {
  const outcome = event.status < 400 ? "success" : event.status === 401 || event.status === 403 ? "denied" : "failure";
  // A raw INSERT (lib/audit/store.ts): every write and refusal makes one, and a model create (which
  // builds and reads back the whole row) cost several times the statement itself. In a transaction on
  // PostgreSQL it goes with the change's own inserts, in one statement before COMMIT.
  await insertAuditEvent({
    id: newId("aud"),
    platformId: event.actor?.platformId ?? event.platformId ?? null,
    accountId: event.actor?.accountId ?? null,
    actedForAccountId: event.actedForAccountId ?? event.actor?.accountId ?? null,
    at: new Date(),
    actorType: event.actor?.type ?? "anonymous",
    actorId: event.actor?.id ?? null,
    action: event.action,
    targetId: event.targetId,
    ip: event.ip,
    outcome,
    status: event.status,
    requestId: event.requestId,
    clientRequestId: event.clientRequestId ?? null,
    details: event.details ? JSON.stringify(event.details) : null,
  });
}

/** Records a refusal or an outcome whose change (if any) already committed: a failure to record is logged, not a 500. */
export async function recordAuditEvent(event: AuditEventInput) {
  try {
    await writeAuditEvent(event);
  } catch (error) {
    // The request already happened; losing its record is logged loudly rather than turned into a 500.
    console.error(`[${event.requestId}] could not write audit event ${event.action}: ${(error as Error).message}`);
  }
}

/**
 * `commit`, with the audit record's details read from what the work returned, before the record is
 * written in the same transaction: for an `ownTransactions` handler whose details only the work knows.
 */
export function withAuditDetails<R>(commit: Commit, record: (result: R) => void): Commit {
  const withDetails = (work: () => Promise<R>, actor?: AuditActor | ((result: R) => AuditActor)) =>
    commit(async () => {
      const result = await work();
      record(result);
      return result;
    }, actor);
  // The caller's work answers R: record() is typed by it, and Commit's own type parameter is that R.
  return withDetails as Commit;
}
