import { execFile } from "node:child_process";
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import {
  AUDIT_EXPORT_FORMAT,
  eventLeafJson,
  type AuditExportLine,
  type CheckpointJson,
  type SealedAuditEventJson,
} from "@/lib/audit/seal/format";
import { leafHash, merkleRoot } from "@/lib/audit/seal/merkle";
import { signCheckpoint } from "@/lib/audit/seal/sealer";
import { signingKeyId } from "@/lib/audit/seal/key-id";
import type { AuditSigningKey } from "@/lib/audit/seal/signing-key";
import { describeVerdict, verifyAuditExport, type VerifyOptions } from "@/lib/audit/seal/verify";

// The offline verifier over export files made here (no database): tampering with the file's lines,
// each kind named by the verifier with the event id or checkpoint seq it concerns.

function testKey(): AuditSigningKey & { publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const publicKeyPem = publicKey.export({ type: "spki", format: "pem" }).toString();
  return { id: signingKeyId(publicKey), privateKey, publicKeyPem, publicKey };
}

const PLATFORM = "acct_verifytest0000000000";
const START = Date.parse("2026-11-26T09:00:00.000Z");

function event(index: number, checkpointId: string | null, action = "test.event"): SealedAuditEventJson {
  return {
    id: `aud_${String(index).padStart(20, "0")}`,
    at: new Date(START + index * 1000).toISOString(),
    accountId: PLATFORM,
    actedForAccountId: PLATFORM,
    actorType: "employee",
    actorId: "emp_x",
    action,
    targetId: null,
    ip: "192.0.2.1",
    outcome: "success",
    status: 200,
    requestId: `req_${index}`,
    clientRequestId: null,
    details: { n: index, note: "é ✓", nested: { b: 1, a: [1.5, null] } },
    checkpointId,
  };
}

type Trail = { lines: string[]; checkpoints: CheckpointJson[]; events: SealedAuditEventJson[] };

/**
 * An export: `sizes` events per checkpoint (signed with `keys[i]`, or the last key given), then
 * `pending` unsealed events. `action` lets a second trail differ in content.
 */
function trail(sizes: number[], keys: AuditSigningKey[], { pending = 0, action = "test.event" } = {}): Trail {
  const lines: AuditExportLine[] = [
    { type: "export", format: AUDIT_EXPORT_FORMAT, platformId: PLATFORM, exportedAt: new Date().toISOString() },
  ];
  const checkpoints: CheckpointJson[] = [];
  const events: SealedAuditEventJson[] = [];
  let next = 0;
  sizes.forEach((size, index) => {
    const id = `ckp_${String(index + 1).padStart(20, "0")}`;
    const group = Array.from({ length: size }, () => event(next++, id, action));
    const leaves = group.map((sealed) => leafHash(eventLeafJson(sealed)));
    const key = keys[Math.min(index, keys.length - 1)]!;
    const checkpoint = signCheckpoint(
      {
        id,
        platformId: PLATFORM,
        seq: index + 1,
        fromEventId: group[0]!.id,
        toEventId: group.at(-1)!.id,
        count: size,
        eventsRoot: merkleRoot(leaves).toString("hex"),
        previousHash: checkpoints.at(-1)?.hash ?? null,
        keyId: key.id,
        sealedAt: new Date(START + next * 1000).toISOString(),
      },
      key,
    );
    checkpoints.push(checkpoint);
    events.push(...group);
    lines.push(...group.map((sealed) => ({ type: "event" as const, event: sealed })));
    lines.push({ type: "checkpoint", checkpoint, leaves: leaves.map((leaf) => leaf.toString("hex")) });
  });
  for (let i = 0; i < pending; i++) lines.push({ type: "event", event: event(next++, null) });
  return { lines: lines.map((line) => JSON.stringify(line)), checkpoints, events };
}

async function* each(lines: string[]) {
  yield* lines;
}

const verdictOf = async (lines: string[], options: VerifyOptions) =>
  describeVerdict(await verifyAuditExport(each(lines), options));

/** The index of the line of the event with this id. */
const lineOfEvent = (lines: string[], id: string) => lines.findIndex((line) => line.includes(`"id":"${id}"`));
const eventId = (index: number) => event(index, null).id;

/** A line as a test edits it: any field of the event, the checkpoint or the leaves. */
type EditableLine = { event: Record<string, unknown>; checkpoint: Record<string, unknown>; leaves: string[] };

function edited(lines: string[], index: number, change: (line: EditableLine) => void): string[] {
  const copy = [...lines];
  const value = JSON.parse(copy[index]!) as EditableLine;
  change(value);
  copy[index] = JSON.stringify(value);
  return copy;
}

const key = testKey();
const options = { publicKeys: [key.publicKey] };

describe("verifyAuditExport: an intact export", () => {
  it("is intact, with its events, checkpoints and pending events counted", async () => {
    const { lines, checkpoints } = trail([4, 4, 3], [key], { pending: 2 });
    expect(await verdictOf([...lines, ""], options)).toBe(
      `Intact: 11 events in 3 checkpoints, up to checkpoint 3 sealed at ${checkpoints[2]!.sealedAt}; 2 events pending (not yet sealed).`,
    );
  });

  it("with nothing sealed yet, says so", async () => {
    const { lines } = trail([], [key], { pending: 1 });
    expect(await verdictOf(lines, options)).toBe(
      "Intact: 0 events in 0 checkpoints (nothing sealed yet); 1 event pending (not yet sealed).",
    );
  });

  it("takes several keys for a rotated key, each checkpoint checked with the one its keyId names", async () => {
    const rotated = testKey();
    const { lines } = trail([2, 2, 2], [key, key, rotated]);
    expect(await verdictOf(lines, { publicKeys: [key.publicKey, rotated.publicKey] })).toMatch(
      /^Intact: 6 events in 3/,
    );
    expect(await verdictOf(lines, options)).toBe(
      `Not intact: checkpoint 3 is signed by key ${rotated.id}, which is not among the public keys given`,
    );
    expect(await verdictOf(lines, { publicKeys: [testKey().publicKey] })).toBe(
      `Not intact: checkpoint 1 is signed by key ${key.id}, which is not among the public keys given`,
    );
  });
});

describe("verifyAuditExport: tampering with the lines is named", () => {
  const { lines, checkpoints } = trail([4, 4, 4], [key], { pending: 1 });

  it("an event edited", async () => {
    const tampered = edited(lines, lineOfEvent(lines, eventId(5)), (line) => (line.event.status = 500));
    expect(await verdictOf(tampered, options)).toBe(
      `Not intact: event ${eventId(5)} was changed: its content matches none of the events checkpoint 2 sealed`,
    );
  });

  it("an event removed, named by its neighbours and position", async () => {
    const tampered = lines.filter((_, index) => index !== lineOfEvent(lines, eventId(6)));
    expect(await verdictOf(tampered, options)).toBe(
      `Not intact: an event was removed from checkpoint 2: the one sealed at position 3 of 4 (after event ${eventId(5)}, before event ${eventId(7)})`,
    );
    const last = lines.filter((_, index) => index !== lineOfEvent(lines, eventId(11)));
    expect(await verdictOf(last, options)).toBe(
      `Not intact: an event was removed from checkpoint 3: the one sealed at position 4 of 4 (after event ${eventId(10)})`,
    );
  });

  it("an event inserted, before a checkpoint (sealed or not) or after the last one claiming a checkpoint", async () => {
    const at = lineOfEvent(lines, eventId(2));
    const forged = JSON.stringify({ type: "event", event: { ...event(2, checkpoints[0]!.id), id: "aud_forged" } });
    expect(await verdictOf([...lines.slice(0, at), forged, ...lines.slice(at)], options)).toBe(
      "Not intact: event aud_forged was inserted into checkpoint 1: its content matches none of the events it sealed",
    );
    const unsealed = JSON.stringify({ type: "event", event: { ...event(99, null), id: "aud_unsealed" } });
    expect(await verdictOf([...lines.slice(0, at), unsealed, ...lines.slice(at)], options)).toBe(
      "Not intact: event aud_unsealed was inserted into checkpoint 1: its content matches none of the events it sealed",
    );
    const claiming = JSON.stringify({ type: "event", event: { ...event(99, checkpoints[2]!.id), id: "aud_late" } });
    expect(await verdictOf([...lines, claiming], options)).toBe(
      `Not intact: event aud_late was inserted after the last checkpoint (3): it names checkpoint ${checkpoints[2]!.id}, which the export does not hold (or that checkpoint was removed)`,
    );
  });

  it("two events swapped: the one moved is named with where it was sealed", async () => {
    const [a, b] = [lineOfEvent(lines, eventId(9)), lineOfEvent(lines, eventId(10))];
    const swapped = [...lines];
    [swapped[a], swapped[b]] = [lines[b]!, lines[a]!];
    expect(await verdictOf(swapped, options)).toBe(
      `Not intact: event ${eventId(9)} was moved: checkpoint 3 sealed it at position 2 of 4, it is at position 3`,
    );
    // One event moved two places later: that one is named, not the two it jumped over.
    const moved = [...lines];
    moved.splice(lineOfEvent(lines, eventId(4)), 1);
    moved.splice(lineOfEvent(lines, eventId(6)), 0, lines[lineOfEvent(lines, eventId(4))]!);
    expect(await verdictOf(moved, options)).toBe(
      `Not intact: event ${eventId(4)} was moved: checkpoint 2 sealed it at position 1 of 4, it is at position 3`,
    );
  });

  it("an event's checkpointId edited (it is not in the leaf, but must name its checkpoint)", async () => {
    const tampered = edited(lines, lineOfEvent(lines, eventId(1)), (line) => (line.event.checkpointId = "ckp_other"));
    expect(await verdictOf(tampered, options)).toBe(
      `Not intact: event ${eventId(1)} names checkpoint ckp_other but is among the events of checkpoint 1 (${checkpoints[0]!.id})`,
    );
  });

  it("a checkpoint edited, its leaves edited, a checkpoint removed, the header missing, a line not JSON", async () => {
    const checkpointLine = (seq: number) => lines.findIndex((line) => line.includes(`"seq":${seq},`));
    const changedRoot = edited(lines, checkpointLine(2), (line) => (line.checkpoint.count = 5));
    expect(await verdictOf(changedRoot, options)).toBe(
      "Not intact: checkpoint 2 was changed: its hash does not match its content",
    );
    const resigned = edited(
      lines,
      checkpointLine(2),
      (line) => (line.checkpoint.signature = checkpoints[0]!.signature),
    );
    expect(await verdictOf(resigned, options)).toMatch(
      /^Not intact: checkpoint 2 was changed: its signature does not verify/,
    );
    const leaves = edited(lines, checkpointLine(1), (line) => (line.leaves[0] = "0".repeat(64)));
    expect(await verdictOf(leaves, options)).toBe(
      "Not intact: the leaves of checkpoint 1 were changed: they do not hash to its eventsRoot",
    );
    const removed = lines.filter((_, index) => index !== checkpointLine(2));
    expect(await verdictOf(removed, options)).toBe(
      "Not intact: checkpoint 2 was removed: checkpoint 3 follows checkpoint 1",
    );
    expect(await verdictOf(lines.slice(1), options)).toMatch(/^Not intact: line 1 is not the audit-ndjson\/1 header/);
    expect(await verdictOf([...lines.slice(0, 3), "{not json", ...lines.slice(3)], options)).toBe(
      "Not intact: line 4 is not JSON",
    );
    expect(await verdictOf([], options)).toBe("Not intact: the file is empty: it has no audit-ndjson/1 header");
  });
});

describe("verifyAuditExport with a checkpoint kept earlier (--from)", () => {
  it("catches a rewrite re-signed with the same key, which is otherwise intact", async () => {
    const original = trail([3, 3], [key]);
    const rewritten = trail([3, 3, 2], [key], { action: "test.rewritten" });
    expect(await verdictOf(rewritten.lines, options)).toMatch(/^Intact: 8 events in 3 checkpoints/);
    expect(await verdictOf(rewritten.lines, { ...options, kept: [original.checkpoints[1]!] })).toBe(
      "Not intact: checkpoint 2 differs from the one kept: the trail was rewritten after it was kept",
    );
    expect(await verdictOf(original.lines, { ...options, kept: [original.checkpoints[1]!] })).toMatch(/^Intact/);
  });

  it("a kept checkpoint must verify itself, and be in the export", async () => {
    const { lines, checkpoints } = trail([3, 3], [key]);
    const forged = { ...checkpoints[0]!, count: 2 };
    expect(await verdictOf(lines, { ...options, kept: [forged] })).toBe(
      "Not intact: the checkpoint 1 kept earlier was changed: its hash does not match its content",
    );
    const later = trail([3, 3, 3], [key]).checkpoints[2]!;
    expect(await verdictOf(lines, { ...options, kept: [later] })).toBe(
      "Not intact: checkpoint 3 kept earlier is not in the export, which ends at checkpoint 2: the trail was cut short or rewritten after it was kept",
    );
  });
});

describe("npm run audit:verify (scripts/audit-verify.ts)", () => {
  const run = async (args: string[]) => {
    const command = path.join(process.cwd(), "node_modules", ".bin", "tsx");
    try {
      const { stdout } = await promisify(execFile)(command, ["scripts/audit-verify.ts", ...args], { timeout: 60_000 });
      return { code: 0, stdout, stderr: "" };
    } catch (error) {
      const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
      return { code, stdout, stderr };
    }
  };

  it("exits 0 when intact, 1 on the first problem, 2 on a usage error", { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "audit-verify-"));
    const file = (name: string, text: string) => {
      writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    const rotated = testKey();
    const { lines, checkpoints } = trail([3, 3, 2], [key, key, rotated], { pending: 1 });
    const exported = file("export.ndjson", `${lines.join("\n")}\n`);
    // The public_key endpoint's answer for the first key, a PEM file for the rotated one.
    const answer = file("keys.json", JSON.stringify({ keys: [{ keyId: key.id, publicKey: key.publicKeyPem }] }));
    const pem = file("rotated.pem", rotated.publicKeyPem);
    // A checkpoint kept from its audit.checkpoint webhook event.
    const kept = file("kept.json", JSON.stringify({ type: "audit.checkpoint", data: checkpoints[1] }));

    const intact = await run([exported, "--public-key", answer, "--public-key", pem, "--from", kept]);
    expect(intact).toEqual({
      code: 0,
      stdout: `Intact: 8 events in 3 checkpoints, up to checkpoint 3 sealed at ${checkpoints[2]!.sealedAt}; 1 event pending (not yet sealed).\n`,
      stderr: "",
    });

    const tampered = edited(lines, lineOfEvent(lines, eventId(4)), (line) => (line.event.ip = "198.51.100.7"));
    const changed = await run([
      file("tampered.ndjson", tampered.join("\n")),
      "--public-key",
      answer,
      "--public-key",
      pem,
    ]);
    expect(changed).toMatchObject({
      code: 1,
      stdout: `Not intact: event ${eventId(4)} was changed: its content matches none of the events checkpoint 2 sealed\n`,
    });

    const usage = await run([exported]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(
      /name at least one --public-key\nusage: npm run audit:verify -- <export.ndjson> --public-key/,
    );
  });
});
