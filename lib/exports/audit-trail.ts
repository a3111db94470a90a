import { presentAuditEvent } from "@/lib/audit/schemas";
import { AUDIT_EXPORT_FORMAT, type AuditExportLine } from "@/lib/audit/seal/format";
import { checkpointJson } from "@/lib/audit/seal/sealer";
import { db } from "@/lib/db";
import type { AuditCheckpoint, AuditEvent, Prisma } from "@/lib/generated/prisma/client";
import { auditedExport, EXPORT_PAGE_SIZE, type Exporter } from "@/lib/exports/exports";
import type { ExportChunk } from "@/lib/exports/stream";

// GET /v1/exports/audit_events?format=ndjson: the platform's whole sealed trail, one JSON object a line
// (lib/audit/seal/format.ts, AuditExportLine), for the offline verifier (scripts/audit-verify.ts): the
// header; each checkpoint in seq order, its events in (at, id) order before it; then the events no
// checkpoint holds. Read a page at a time: memory holds one page of events or a few checkpoints.

/** Checkpoints read at a time: each carries 32 bytes of leaf hash per event it seals (32 KB for 1,000). */
const CHECKPOINT_PAGE_SIZE = 20;

const line = (value: AuditExportLine) => `${JSON.stringify(value)}\n`;

/** A checkpoint's leaf hashes (32 bytes each, in order) as hex strings. */
function leavesOf(leafHashes: Uint8Array): string[] {
  const bytes = Buffer.from(leafHashes.buffer, leafHashes.byteOffset, leafHashes.byteLength);
  return Array.from({ length: bytes.length / 32 }, (_, index) =>
    bytes.subarray(index * 32, index * 32 + 32).toString("hex"),
  );
}

async function* eachCheckpoint(platformId: string): AsyncGenerator<AuditCheckpoint> {
  let afterSeq = 0;
  for (;;) {
    const page = await db().auditCheckpoint.findMany({
      where: { platformId, seq: { gt: afterSeq } },
      orderBy: { seq: "asc" },
      take: CHECKPOINT_PAGE_SIZE,
    });
    yield* page;
    if (page.length < CHECKPOINT_PAGE_SIZE) return;
    afterSeq = page.at(-1)!.seq;
  }
}

/**
 * Events of the platform matching `where`, in (at, id) order, as chunks of lines, a page at a time (the
 * keyset after the last row read, so a page costs the same however deep it is).
 */
async function* eventLines(
  platformId: string,
  where: Prisma.AuditEventWhereInput,
  keep: (rows: AuditEvent[]) => Promise<AuditEvent[]> = async (rows) => rows,
): AsyncGenerator<ExportChunk> {
  let last: AuditEvent | undefined;
  for (;;) {
    const after = last ? { OR: [{ at: { gt: last.at } }, { at: last.at, id: { gt: last.id } }] } : {};
    const page = await db().auditEvent.findMany({
      where: { AND: [{ platformId }, where, after] },
      orderBy: [{ at: "asc" }, { id: "asc" }],
      take: EXPORT_PAGE_SIZE,
    });
    const kept = await keep(page);
    if (kept.length) {
      const text = kept.map((row) => line({ type: "event", event: presentAuditEvent(row) })).join("");
      yield { text, rows: kept.length };
    }
    if (page.length < EXPORT_PAGE_SIZE) return;
    last = page.at(-1);
  }
}

/**
 * The trail's lines after the header. The tail holds the events no exported checkpoint holds: the
 * pending ones, and any naming a checkpoint that is not there (its row deleted), so the verifier sees
 * them rather than a trail that merely ends early (but not those a checkpoint sealed meanwhile). Only the
 * ids of checkpoints are kept, one per batch.
 */
export async function* auditTrailChunks(platformId: string): AsyncGenerator<ExportChunk> {
  const exported: string[] = [];
  for await (const checkpoint of eachCheckpoint(platformId)) {
    yield* eventLines(platformId, { checkpointId: checkpoint.id });
    const leaves = leavesOf(checkpoint.leafHashes);
    yield { text: line({ type: "checkpoint", checkpoint: checkpointJson(checkpoint), leaves }), rows: 0 };
    exported.push(checkpoint.id);
  }
  yield* eventLines(
    platformId,
    { OR: [{ checkpointId: null }, { checkpointId: { notIn: exported } }] },
    withoutSealedSince,
  );
}

/**
 * Drops the events a checkpoint sealed after the checkpoints were read (the sealer ran during the
 * export): that checkpoint is not in this export, so its events belong to the next one. Those naming a
 * checkpoint that does not exist stay.
 */
async function withoutSealedSince(rows: AuditEvent[]): Promise<AuditEvent[]> {
  const named = [...new Set(rows.flatMap((row) => (row.checkpointId ? [row.checkpointId] : [])))];
  if (named.length === 0) return rows;
  const existing = await db().auditCheckpoint.findMany({ where: { id: { in: named } }, select: { id: true } });
  const sealedSince = new Set(existing.map((checkpoint) => checkpoint.id));
  return rows.filter((row) => !row.checkpointId || !sealedSince.has(row.checkpointId));
}

/** The scope's platform's whole audit trail as an NDJSON attachment, audited like every export. */
export function exportAuditTrail({ by }: { by: Exporter }): Response {
  const platformId = by.scope.platformId;
  const header = line({
    type: "export",
    format: AUDIT_EXPORT_FORMAT,
    platformId,
    exportedAt: new Date().toISOString(),
  });
  return auditedExport({
    resource: "audit_events",
    filters: { format: "ndjson" },
    by,
    head: header,
    chunks: auditTrailChunks(platformId),
    extension: "ndjson",
    contentType: "application/x-ndjson",
  });
}
