import { generateKeyPairSync } from "node:crypto";
import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { GET } from "@/app/v1/exports/audit_events/route";
import { signingKeyId } from "@/lib/audit/seal/key-id";
import { sealBatch } from "@/lib/audit/seal/sealer";
import { describeVerdict, verifyAuditExport } from "@/lib/audit/seal/verify";
import { db, inTransaction } from "@/lib/db";
import { databaseProvider } from "@/lib/env";
import { insertAuditEvent } from "@/lib/audit/store";
import { newId } from "@/lib/ids/generate";
import { platformWithKey } from "@/lib/testing/factories";

// The NDJSON export of a large trail streams in constant memory: 100,000 events sealed in 100
// checkpoints, read through the route while the verifier checks the lines as they arrive, the heap's
// live size (after a collection) sampled along the way.

// PostgreSQL's half runs a fifth of it: the streaming is the same code, and 100,000 rows sealed there
// take minutes on a shared machine.
const EVENTS = databaseProvider() === "postgresql" ? 20_000 : 100_000;

// A collection on demand, so a sample measures what is alive rather than garbage not yet collected.
v8.setFlagsFromString("--expose-gc");
const collect = vm.runInNewContext("gc") as () => void;

const bulkRow = (platformId: string, n: number, start: number) => ({
  id: newId("aud"),
  platformId,
  accountId: platformId,
  actedForAccountId: platformId,
  at: new Date(start + n),
  actorType: "api_key" as const,
  actorId: "key_bulk",
  action: "export.test.bulk",
  targetId: null,
  ip: "192.0.2.1",
  outcome: "success" as const,
  status: 200,
  requestId: `req_bulk_${n}`,
  clientRequestId: null,
});

/**
 * Fast on either database: on SQLite the trail's own raw INSERT (lib/audit/store.ts), 10,000 to a
 * transaction; on PostgreSQL multi-row INSERTs of 1,000 (createMany).
 */
async function seed(platformId: string) {
  const start = Date.now() - 86_400_000;
  const details = (n: number) => ({ n, note: "bulk row" });
  if (databaseProvider() === "postgresql") {
    for (let offset = 0; offset < EVENTS; offset += 1000)
      await db().auditEvent.createMany({
        data: Array.from({ length: 1000 }, (_, index) => ({
          ...bulkRow(platformId, offset + index, start),
          details: details(offset + index),
        })),
      });
    return;
  }
  for (let offset = 0; offset < EVENTS; offset += 10_000)
    await inTransaction(async () => {
      for (let n = offset; n < offset + 10_000; n++)
        await insertAuditEvent({ ...bulkRow(platformId, n, start), details: JSON.stringify(details(n)) });
    });
}

/** The body's lines as they arrive, telling `sample` the size of each chunk. */
async function* linesOf(body: ReadableStream<Uint8Array>, sample: (bytes: number) => void) {
  const decoder = new TextDecoder();
  let rest = "";
  const reader = body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    const chunk = read.value;
    sample(chunk.byteLength);
    rest += decoder.decode(chunk, { stream: true });
    const lines = rest.split("\n");
    rest = lines.pop()!;
    yield* lines;
  }
  if (rest) yield rest;
}

describe("the NDJSON export of 100,000 events", () => {
  it("streams in constant memory, and verifies as it arrives", { timeout: 180_000 }, async () => {
    const { apiKey, account } = await platformWithKey();
    await seed(account.id);
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const key = { id: signingKeyId(publicKey), privateKey, publicKeyPem: "" };
    while (await sealBatch(account.id, key, { now: () => new Date(), batchSize: 1000 }));
    const sealed = await db().auditEvent.count({ where: { platformId: account.id } });
    const checkpoints = await db().auditCheckpoint.count({ where: { platformId: account.id } });
    expect(checkpoints).toBe(Math.ceil(sealed / 1000));
    collect();
    const baseline = process.memoryUsage().heapUsed;
    let [bytes, chunks, peak] = [0, 0, 0];
    const sample = (size: number) => {
      bytes += size;
      chunks += 1;
      if (chunks % 10 !== 0) return;
      collect();
      peak = Math.max(peak, process.memoryUsage().heapUsed - baseline);
    };
    const response = await GET(
      new Request("http://localhost:3000/v1/exports/audit_events?format=ndjson", {
        headers: { authorization: `Bearer ${apiKey}`, host: "localhost:3000", "x-forwarded-for": "127.0.0.1" },
      }),
      { params: Promise.resolve({}) },
    );
    expect(response.status).toBe(200);
    const verdict = await verifyAuditExport(linesOf(response.body!, sample), { publicKeys: [publicKey] });
    expect(describeVerdict(verdict)).toMatch(
      new RegExp(
        `^Intact: ${sealed} events in ${checkpoints} checkpoints, up to checkpoint ${checkpoints} sealed at .*; 0 events pending`,
      ),
    );
    expect(bytes).toBeGreaterThan(EVENTS * 300);
    // One page of events (500) or of checkpoints (20) at a time: a few MB at most, whatever the size.
    expect(peak).toBeLessThan(bytes / 4);
  });
});
