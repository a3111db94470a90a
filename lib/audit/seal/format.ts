import canonicalize from "canonicalize";

// The sealed audit trail's formats (docs/operations.md, The verifiable audit trail), shared by the sealer,
// the NDJSON export, the offline verifier (scripts/audit-verify.ts) and the dashboard's Verify page:
// no Node.js imports, so a browser bundle can use it too.

/** An audit event as the API and the export give it: its leaf is this without checkpointId. */
export type AuditEventJson = {
  id: string;
  at: string;
  accountId: string | null;
  actedForAccountId: string | null;
  actorType: "employee" | "api_key" | "anonymous";
  actorId: string | null;
  action: string;
  targetId: string | null;
  ip: string | null;
  outcome: "success" | "failure" | "denied";
  status: number;
  requestId: string;
  clientRequestId: string | null;
  details: Record<string, unknown> | null;
};

export type SealedAuditEventJson = AuditEventJson & { checkpointId: string | null };

/** A checkpoint as the API and the export give it. `hash` covers every other field but `signature`. */
export type CheckpointJson = {
  id: string;
  platformId: string;
  seq: number;
  fromEventId: string;
  toEventId: string;
  count: number;
  /** Hex SHA-256 Merkle root (RFC 6962) over the events' canonical JSON, in (at, id) order. */
  eventsRoot: string;
  /** The hash of checkpoint seq - 1; null for the first. */
  previousHash: string | null;
  /** The id of the key that signed it (GET /v1/audit_events/public_key lists them). */
  keyId: string;
  sealedAt: string;
  /** Hex SHA-256 of the canonical JSON of every field but hash and signature. */
  hash: string;
  /** Base64 Ed25519 signature over the 32 bytes of hash. */
  signature: string;
};

export type UnsignedCheckpointJson = Omit<CheckpointJson, "hash" | "signature">;

/** RFC 8785 (JSON Canonicalization Scheme), by the `canonicalize` package its author keeps. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError("value has no JSON form");
  return text;
}

/** The data of an event's Merkle leaf: its canonical JSON without checkpointId (set when it is sealed). */
export function eventLeafJson(event: AuditEventJson | SealedAuditEventJson): string {
  const { checkpointId: _sealedIn, ...leaf } = event as SealedAuditEventJson;
  return canonicalJson(leaf);
}

/** What a checkpoint's hash is taken over: its canonical JSON without hash and signature. */
export function checkpointHashJson(checkpoint: UnsignedCheckpointJson | CheckpointJson): string {
  const { hash: _hash, signature: _signature, ...hashed } = checkpoint as CheckpointJson;
  return canonicalJson(hashed);
}

/** The NDJSON export's format, named in its header line. */
export const AUDIT_EXPORT_FORMAT = "audit-ndjson/1";

/** One line of the NDJSON export (GET /v1/exports/audit_events?format=ndjson), in order. */
export type AuditExportLine =
  | { type: "export"; format: typeof AUDIT_EXPORT_FORMAT; platformId: string; exportedAt: string }
  | { type: "event"; event: SealedAuditEventJson }
  | { type: "checkpoint"; checkpoint: CheckpointJson; leaves: string[] };
