import { createPublicKey, generateKeyPairSync, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { auditEventJson } from "@/lib/audit/schemas";
import { checkpointHashJson, eventLeafJson } from "@/lib/audit/seal/format";
import { leafHash, merkleRoot } from "@/lib/audit/seal/merkle";
import { checkpointJson, sealBatch, sealPendingEvents } from "@/lib/audit/seal/sealer";
import { signingKeyId, type AuditSigningKey } from "@/lib/audit/seal/signing-key";
import { writeAuditEvent } from "@/lib/audit/trail";
import { db, inTransaction } from "@/lib/db";
import { takeLease } from "@/lib/db/lease";
import { createPlatform } from "@/lib/accounts/platforms";
import { newId } from "@/lib/ids/generate";
import { nextMillisecond } from "@/lib/testing/factories";
import { withScope } from "@/lib/tenancy";
import { createWebhookEndpoint } from "@/lib/webhooks/webhook-endpoints";
import { createHash } from "node:crypto";

function testKey(): AuditSigningKey {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return {
    id: signingKeyId(publicKey),
    privateKey,
    publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString().trim(),
  };
}

let counter = 0;
async function platformWithEvents(count: number) {
  counter += 1;
  const platform = await createPlatform({ name: `Sealed ${counter}` });
  await appendEvents(platform.id, count);
  return platform.id;
}

async function appendEvents(platformId: string, count: number) {
  for (let i = 0; i < count; i++) {
    await inTransaction(() =>
      writeAuditEvent({
        actor: null,
        platformId,
        action: "test.sealed",
        targetId: null,
        ip: "192.0.2.1",
        status: 200,
        requestId: newId("aud").replace("aud_", "req_"),
        details: { n: i, note: "é ✓", nested: { b: 1, a: [1.5, null] } },
      }),
    );
    await nextMillisecond();
  }
}

const eventsOf = (platformId: string) =>
  db().auditEvent.findMany({ where: { platformId }, orderBy: [{ at: "asc" }, { id: "asc" }] });
const checkpointsOf = (platformId: string) =>
  db().auditCheckpoint.findMany({ where: { platformId }, orderBy: { seq: "asc" } });
const settings = { now: () => new Date(), batchSize: 1000 };

describe("the audit sealer", () => {
  it("seals a platform's pending events in one signed checkpoint over their Merkle root, chained to the one before", async () => {
    const key = testKey();
    const platformId = await platformWithEvents(3);

    const first = await sealBatch(platformId, key, settings);
    expect(first).toMatchObject({ seq: 1, count: 3, previousHash: null, keyId: key.id, platformId });
    const events = await eventsOf(platformId);
    expect(events.map((event) => event.checkpointId)).toEqual([first!.id, first!.id, first!.id]);
    expect(first!.fromEventId).toBe(events[0]!.id);
    expect(first!.toEventId).toBe(events[2]!.id);
    const leaves = events.map((event) => leafHash(eventLeafJson(auditEventJson(event))));
    expect(first!.eventsRoot).toBe(merkleRoot(leaves).toString("hex"));
    const hash = createHash("sha256").update(checkpointHashJson(first!)).digest();
    expect(first!.hash).toBe(hash.toString("hex"));
    expect(verify(null, hash, createPublicKey(key.publicKeyPem), Buffer.from(first!.signature, "base64"))).toBe(true);
    const [stored] = await checkpointsOf(platformId);
    expect(checkpointJson(stored!)).toEqual(first);
    expect(Buffer.from(stored!.leafHashes)).toEqual(Buffer.concat(leaves));

    // Nothing pending: no checkpoint. Two more: the second checkpoint, chained by previousHash.
    expect(await sealBatch(platformId, key, settings)).toBeNull();
    await appendEvents(platformId, 2);
    const second = await sealBatch(platformId, key, settings);
    expect(second).toMatchObject({ seq: 2, count: 2, previousHash: first!.hash });
  });

  it("splits a backlog into checkpoints of at most batchSize events, in (at, id) order, in one pass", async () => {
    const key = testKey();
    const platformId = await platformWithEvents(5);
    await sealPendingEvents({ key, batchSize: 2, owner: "sealer-test" });
    const checkpoints = await checkpointsOf(platformId);
    expect(checkpoints.map((checkpoint) => [checkpoint.seq, checkpoint.count])).toEqual([
      [1, 2],
      [2, 2],
      [3, 1],
    ]);
    const events = await eventsOf(platformId);
    expect(events.map((event) => event.checkpointId)).toEqual([0, 0, 1, 1, 2].map((index) => checkpoints[index]!.id));
    for (let i = 1; i < checkpoints.length; i++) expect(checkpoints[i]!.previousHash).toBe(checkpoints[i - 1]!.hash);
  });

  it("keeps one chain when sealers seal the same platform at once: every event in exactly one checkpoint", async () => {
    // Several rounds: which interleaving a round gets is up to the database.
    for (let round = 0; round < 6; round++) {
      const platformId = await platformWithEvents(6);
      const [a, b] = [testKey(), testKey()];
      const results = await Promise.allSettled(
        [a, b, a, b].map((key) => sealBatch(platformId, key, { ...settings, batchSize: 4 })),
      );
      expect(results.some((result) => result.status === "fulfilled" && result.value)).toBe(true);
      // Whatever lost a race rolled back; a later pass seals the rest.
      while (await sealBatch(platformId, a, settings));
      const checkpoints = await checkpointsOf(platformId);
      expect(checkpoints.map((checkpoint) => checkpoint.seq)).toEqual(checkpoints.map((_, index) => index + 1));
      for (let i = 1; i < checkpoints.length; i++) expect(checkpoints[i]!.previousHash).toBe(checkpoints[i - 1]!.hash);
      const events = await eventsOf(platformId);
      expect(checkpoints.reduce((sum, checkpoint) => sum + checkpoint.count, 0)).toBe(events.length);
      for (const checkpoint of checkpoints)
        expect(events.filter((event) => event.checkpointId === checkpoint.id)).toHaveLength(checkpoint.count);
    }
  });

  it("does not seal while another process holds the lease", async () => {
    const platformId = await platformWithEvents(1);
    await db().workerLease.deleteMany({ where: { name: "audit-sealer" } });
    expect(await takeLease({ name: "audit-sealer", owner: "someone-else", ms: 60_000 })).toBe(true);
    try {
      expect(await sealPendingEvents({ key: testKey(), owner: "sealer-test" })).toBe(0);
      expect(await checkpointsOf(platformId)).toEqual([]);
    } finally {
      await db().workerLease.deleteMany({ where: { name: "audit-sealer" } });
    }
  });

  it("announces each checkpoint as audit.checkpoint to the platform's endpoints that listen", async () => {
    const platformId = await platformWithEvents(2);
    const endpoint = await withScope({ platformId, accountId: platformId }, () =>
      createWebhookEndpoint({ url: "http://127.0.0.1:9/hooks", events: ["audit.checkpoint"], enabled: true }),
    );
    const checkpoint = await sealBatch(platformId, testKey(), settings);
    const deliveries = await db().webhookDelivery.findMany({
      where: { webhookEndpointId: endpoint.id, eventType: "audit.checkpoint" },
    });
    expect(deliveries).toHaveLength(1);
    expect(JSON.stringify(deliveries[0]!.eventData)).toContain(checkpoint!.hash);
  });

  it("the database refuses any change to an event but sealing it once, and any change to a checkpoint", async () => {
    const platformId = await platformWithEvents(2);
    const [pending] = await eventsOf(platformId);
    await expect(
      db().auditEvent.update({ where: { id: pending!.id }, data: { action: "test.changed" } }),
    ).rejects.toThrow();
    await expect(
      db().auditEvent.update({ where: { id: pending!.id }, data: { checkpointId: "ckp_x", status: 500 } }),
    ).rejects.toThrow();
    const checkpoint = await sealBatch(platformId, testKey(), settings);
    await expect(
      db().auditEvent.update({ where: { id: pending!.id }, data: { checkpointId: "ckp_other" } }),
    ).rejects.toThrow();
    await expect(db().auditEvent.delete({ where: { id: pending!.id } })).rejects.toThrow();
    await expect(db().auditCheckpoint.update({ where: { id: checkpoint!.id }, data: { count: 1 } })).rejects.toThrow();
    await expect(db().auditCheckpoint.delete({ where: { id: checkpoint!.id } })).rejects.toThrow();
    // Each refusal left the rows as they were.
    expect(await eventsOf(platformId)).toEqual(
      (await eventsOf(platformId)).map(() =>
        expect.objectContaining({ action: "test.sealed", status: 200, checkpointId: checkpoint!.id }),
      ),
    );
    expect(checkpointJson((await checkpointsOf(platformId))[0]!)).toEqual(checkpoint);
  });
});
