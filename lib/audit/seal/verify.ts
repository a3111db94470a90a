import { createHash, verify, type KeyObject } from "node:crypto";
import {
  AUDIT_EXPORT_FORMAT,
  checkpointHashJson,
  eventLeafJson,
  type AuditExportLine,
  type CheckpointJson,
  type SealedAuditEventJson,
} from "@/lib/audit/seal/format";
import { signingKeyId } from "@/lib/audit/seal/key-id";
import { leafHash, merkleRoot } from "@/lib/audit/seal/merkle";
import { alignmentProblem, type SeenEvent } from "@/lib/audit/seal/verify-alignment";

// The offline verifier of an NDJSON export (GET /v1/exports/audit_events?format=ndjson): no database,
// no server, only the file's lines and the service's public keys. It reads the lines in turn, keeping
// only the leaf hashes of the events whose checkpoint is still ahead, and stops at the first problem,
// which it names: the checkpoint by its seq, the event by its id.
//
// What makes the leaves authentic though the export carries them unsigned: their Merkle root must be
// the eventsRoot the signed checkpoint names, and their number its count. The events must then hash
// to exactly those leaves, in order; where they do not, lining the two up tells what was done.

export type VerifyOptions = {
  /** Every key that signed a checkpoint of the trail (a rotated-out one too): matched by keyId. */
  publicKeys: readonly KeyObject[];
  /** Checkpoints kept earlier (a webhook's, an earlier export's): the export must hold the same ones. */
  kept?: readonly CheckpointJson[];
};

export type Verdict =
  | { intact: true; events: number; checkpoints: number; pending: number; last: CheckpointJson | null }
  | { intact: false; problem: string };

/** The first problem found: thrown to stop reading, caught by verifyAuditExport. */
class NotIntact extends Error {}

function fail(message: string): never {
  throw new NotIntact(message);
}

type Trail = {
  platformId: string;
  keys: ReadonlyMap<string, KeyObject>;
  kept: ReadonlyMap<number, CheckpointJson>;
  previous: CheckpointJson | null;
  checkpoints: number;
  sealedEvents: number;
  /** The events read since the last checkpoint line. */
  group: SeenEvent[];
};

/** Verifies an export's lines (each without its newline), read in turn. */
export async function verifyAuditExport(lines: AsyncIterable<string>, options: VerifyOptions): Promise<Verdict> {
  const keys = new Map(options.publicKeys.map((key) => [signingKeyId(key), key]));
  let trail: Trail | undefined;
  let number = 0;
  try {
    for await (const text of lines) {
      number += 1;
      if (text.trim() === "") continue;
      const line = parseLine(text, number);
      if (trail) takeLine(trail, line, number);
      else trail = begin(line, keys, options.kept ?? []);
    }
    if (!trail) fail(`the file is empty: it has no ${AUDIT_EXPORT_FORMAT} header`);
    return finish(trail);
  } catch (error) {
    if (error instanceof NotIntact) return { intact: false, problem: error.message };
    throw error;
  }
}

/** The verdict as the one line the command prints. */
export function describeVerdict(verdict: Verdict): string {
  if (!verdict.intact) return `Not intact: ${verdict.problem}`;
  const pending = `${verdict.pending} ${verdict.pending === 1 ? "event" : "events"} pending (not yet sealed).`;
  if (!verdict.last) return `Intact: 0 events in 0 checkpoints (nothing sealed yet); ${pending}`;
  return (
    `Intact: ${verdict.events} events in ${verdict.checkpoints} checkpoints, up to checkpoint ` +
    `${verdict.last.seq} sealed at ${verdict.last.sealedAt}; ${pending}`
  );
}

function begin(line: AuditExportLine, keys: ReadonlyMap<string, KeyObject>, kept: readonly CheckpointJson[]): Trail {
  if (line.type !== "export" || line.format !== AUDIT_EXPORT_FORMAT)
    fail(`line 1 is not the ${AUDIT_EXPORT_FORMAT} header (GET /v1/exports/audit_events?format=ndjson begins with it)`);
  for (const checkpoint of kept) {
    checkSigned(checkpoint, keys, `the checkpoint ${checkpoint.seq} kept earlier`);
    if (checkpoint.platformId !== line.platformId)
      fail(`the checkpoint kept earlier is of platform ${checkpoint.platformId}, not the export's ${line.platformId}`);
  }
  const keptBySeq = new Map(kept.map((checkpoint) => [checkpoint.seq, checkpoint]));
  return {
    platformId: line.platformId,
    keys,
    kept: keptBySeq,
    previous: null,
    checkpoints: 0,
    sealedEvents: 0,
    group: [],
  };
}

function takeLine(trail: Trail, line: AuditExportLine, number: number) {
  if (line.type === "export") fail(`line ${number} is a second header`);
  if (line.type === "event") trail.group.push(seenEvent(line.event, number));
  else closeCheckpoint(trail, line.checkpoint, line.leaves);
}

function seenEvent(event: SealedAuditEventJson, line: number): SeenEvent {
  return {
    id: event.id,
    at: Date.parse(event.at),
    checkpointId: event.checkpointId,
    leaf: leafHash(eventLeafJson(event)).toString("hex"),
    line,
  };
}

/** A checkpoint line: the checkpoint itself, its place in the chain, then the events read before it. */
function closeCheckpoint(trail: Trail, checkpoint: CheckpointJson, leaves: readonly string[]) {
  const name = `checkpoint ${checkpoint.seq}`;
  checkPlace(trail, checkpoint);
  checkSigned(checkpoint, trail.keys, name);
  if (checkpoint.previousHash !== (trail.previous?.hash ?? null))
    fail(`${name} does not follow checkpoint ${trail.previous?.seq}: its previousHash is not that checkpoint's hash`);
  const kept = trail.kept.get(checkpoint.seq);
  if (kept && kept.hash !== checkpoint.hash)
    fail(`${name} differs from the one kept: the trail was rewritten after it was kept`);
  checkLeaves(checkpoint, leaves, name);
  checkEvents(trail.group, checkpoint, leaves, name);
  trail.sealedEvents += trail.group.length;
  trail.checkpoints += 1;
  trail.previous = checkpoint;
  trail.group = [];
}

function checkPlace(trail: Trail, checkpoint: CheckpointJson) {
  const expected = (trail.previous?.seq ?? 0) + 1;
  const after = trail.previous ? `checkpoint ${trail.previous.seq}` : "the header";
  if (checkpoint.seq > expected)
    fail(`checkpoint ${expected} was removed: checkpoint ${checkpoint.seq} follows ${after}`);
  if (checkpoint.seq < expected)
    fail(`checkpoint ${checkpoint.seq} was inserted or moved: it follows ${after}, where ${expected} belongs`);
  if (checkpoint.platformId !== trail.platformId)
    fail(`checkpoint ${checkpoint.seq} is of platform ${checkpoint.platformId}, not the export's ${trail.platformId}`);
}

/** The checkpoint's hash is over its content, and its signature by the key it names is over the hash. */
function checkSigned(checkpoint: CheckpointJson, keys: ReadonlyMap<string, KeyObject>, name: string) {
  const hash = createHash("sha256").update(checkpointHashJson(checkpoint)).digest();
  if (hash.toString("hex") !== checkpoint.hash) fail(`${name} was changed: its hash does not match its content`);
  const key = keys.get(checkpoint.keyId);
  if (!key) fail(`${name} is signed by key ${checkpoint.keyId}, which is not among the public keys given`);
  if (!signatureHolds(hash, key, checkpoint.signature))
    fail(`${name} was changed: its signature does not verify with key ${checkpoint.keyId}`);
}

function signatureHolds(hash: Buffer, key: KeyObject, signature: string): boolean {
  try {
    return verify(null, hash, key, Buffer.from(signature, "base64"));
  } catch {
    // Not an Ed25519 key, or no signature at all: it does not verify.
    return false;
  }
}

/** Unsigned in the export, the leaves are authentic when they are as many as, and hash to, what the signature covers. */
function checkLeaves(checkpoint: CheckpointJson, leaves: readonly string[], name: string) {
  if (leaves.length !== checkpoint.count)
    fail(`the leaves of ${name} were changed: it sealed ${checkpoint.count} events, the export lists ${leaves.length}`);
  const root = merkleRoot(leaves.map((leaf) => Buffer.from(leaf, "hex"))).toString("hex");
  if (root !== checkpoint.eventsRoot) fail(`the leaves of ${name} were changed: they do not hash to its eventsRoot`);
}

function checkEvents(group: readonly SeenEvent[], checkpoint: CheckpointJson, leaves: readonly string[], name: string) {
  const misfit = alignmentProblem(group, leaves, name);
  if (misfit) fail(misfit);
  if (group.length === 0) fail(`${name} seals no events`);
  for (const event of group) {
    if (event.checkpointId === null)
      fail(`event ${event.id} is not sealed (checkpointId null) but comes before ${name}: it was inserted`);
    if (event.checkpointId !== checkpoint.id)
      fail(
        `event ${event.id} names checkpoint ${event.checkpointId} but is among the events of ${name} (${checkpoint.id})`,
      );
  }
  if (group[0]!.id !== checkpoint.fromEventId || group.at(-1)!.id !== checkpoint.toEventId)
    fail(
      `${name} seals events ${checkpoint.fromEventId} to ${checkpoint.toEventId}, not ${group[0]!.id} to ${group.at(-1)!.id}`,
    );
  for (let index = 1; index < group.length; index++) {
    const [before, event] = [group[index - 1]!, group[index]!];
    if (!(event.at > before.at || (event.at === before.at && event.id > before.id)))
      fail(`event ${event.id} is out of (at, id) order in ${name}: it comes after ${before.id}`);
  }
}

function finish(trail: Trail): Verdict {
  const last = trail.previous;
  const claimed = trail.group.find((event) => event.checkpointId !== null);
  if (claimed)
    fail(
      `event ${claimed.id} was inserted after the last checkpoint (${last ? last.seq : "there is none"}): it names ` +
        `checkpoint ${claimed.checkpointId}, which the export does not hold (or that checkpoint was removed)`,
    );
  const lastSeq = last?.seq ?? 0;
  for (const seq of trail.kept.keys())
    if (seq > lastSeq)
      fail(
        `checkpoint ${seq} kept earlier is not in the export, which ends at checkpoint ${lastSeq}: the trail was cut short or rewritten after it was kept`,
      );
  return {
    intact: true,
    events: trail.sealedEvents,
    checkpoints: trail.checkpoints,
    pending: trail.group.length,
    last,
  };
}

// Reading a line: its JSON, and just enough of its shape that the checks above can run on it. An event's
// other fields need no check: whatever they hold, its leaf hash decides.

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === "string";
const HEX64 = /^[0-9a-f]{64}$/;

function parseLine(text: string, number: number): AuditExportLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    fail(`line ${number} is not JSON`);
  }
  if (isRecord(value)) {
    if (value.type === "export" && isString(value.platformId) && isString(value.format))
      return value as AuditExportLine;
    if (value.type === "event" && isEvent(value.event)) return value as AuditExportLine;
    const checkpoint = checkpointOf(value.checkpoint);
    if (value.type === "checkpoint" && checkpoint && isLeaves(value.leaves))
      return { type: "checkpoint", checkpoint, leaves: value.leaves };
  }
  fail(`line ${number} is not a line of ${AUDIT_EXPORT_FORMAT} (a header, an event or a checkpoint)`);
}

function isEvent(value: unknown): value is SealedAuditEventJson {
  return (
    isRecord(value) &&
    isString(value.id) &&
    isString(value.at) &&
    Number.isFinite(Date.parse(value.at)) &&
    (value.checkpointId === null || isString(value.checkpointId))
  );
}

const isLeaves = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((leaf) => isString(leaf) && HEX64.test(leaf));

const CHECKPOINT_STRINGS = [
  "id",
  "platformId",
  "fromEventId",
  "toEventId",
  "eventsRoot",
  "keyId",
  "sealedAt",
  "hash",
  "signature",
] as const;

/** A checkpoint's fields, and only those (its hash covers exactly them), or null when it is not one. */
export function checkpointOf(value: unknown): CheckpointJson | null {
  if (!isRecord(value) || !CHECKPOINT_STRINGS.every((field) => isString(value[field]))) return null;
  if (!Number.isSafeInteger(value.seq) || !Number.isSafeInteger(value.count)) return null;
  if (value.previousHash !== null && !isString(value.previousHash)) return null;
  const picked = Object.fromEntries(
    [...CHECKPOINT_STRINGS, "seq", "count", "previousHash"].map((field) => [field, value[field]]),
  );
  return picked as CheckpointJson;
}
