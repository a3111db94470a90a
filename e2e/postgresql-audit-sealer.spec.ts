import { createHash, createPublicKey, verify } from "node:crypto";
import { httpRequest, type Server } from "./fixtures";
import { expect, tenantOnTwoServers, test, twoServersOnOneDatabase } from "./postgresql-fixture";
import { checkpointHashJson, type CheckpointJson } from "../lib/audit/seal/format";
import { verifyAuditExport } from "../lib/audit/seal/verify";

// Two server processes on one PostgreSQL database, each running the audit sealer (a pass every 100 ms
// here: AUDIT_SEAL_INTERVAL_MS, which only a process the test runner started may set), each with its
// own generated signing key. Audited requests go to both; halfway the process holding the sealer's
// lease stops, and the other takes over. The platform's trail is one chain: seq 1, 2, ... with no gap
// or fork, each checkpoint's previousHash the hash before it, every event in exactly one checkpoint,
// each signature valid under the key it names.

type CheckpointRow = CheckpointJson & { sealedAt: Date };

test.describe.serial("the audit sealer with two server processes on one PostgreSQL database", () => {
  test.setTimeout(180_000);
  const { servers: started, query } = twoServersOnOneDatabase("seal", { AUDIT_SEAL_INTERVAL_MS: "100" });

  test("one chain per platform, whichever process seals, when the lease changes hands", async () => {
    const [a, b] = started();
    const {
      key,
      accountId: tenantId,
      setupPlatformId: platformId,
    } = await tenantOnTwoServers([a, b], "Tenant with a sealed trail");
    const audited = (server: Server, round: number) =>
      httpRequest(`${server.baseURL}/v1/sandbox/recipients`, {
        method: "POST",
        body: { name: `Supplier ${round}` },
        headers: { authorization: `Bearer ${key}` },
      });

    const unsealed = async () =>
      Number(
        (
          await query<{ count: string }>(
            `SELECT count(*) FROM "AuditEvent" WHERE "platformId" IS NOT NULL AND "checkpointId" IS NULL`,
          )
        )[0]!.count,
      );
    for (let round = 0; round < 30; round++) expect((await audited(round % 2 ? a : b, round)).status).toBe(201);
    await expect.poll(unsealed, { timeout: 30_000 }).toBe(0);

    // The holder stops (a clean stop gives the lease up); the other seals what comes next.
    const [holder] = await query<{ owner: string }>(`SELECT owner FROM "WorkerLease" WHERE name = 'audit-sealer'`);
    expect(holder).toBeDefined();
    const stopping = [a, b].find((server) => holder!.owner.startsWith(`seal_${server.pid}_`));
    expect(stopping, `the lease's owner ${holder!.owner} is one of the two`).toBeDefined();
    const staying = stopping === a ? b : a;
    await stopping!.stop();
    for (let round = 30; round < 60; round++) expect((await audited(staying, round)).status).toBe(201);
    await expect.poll(unsealed, { timeout: 30_000 }).toBe(0);

    const keys = new Map(
      (await query<{ id: string; publicKey: string }>(`SELECT id, "publicKey" FROM "AuditSigningKey"`)).map((row) => [
        row.id,
        row.publicKey,
      ]),
    );
    for (const platform of [tenantId, platformId]) {
      const checkpoints = await query<CheckpointRow>(
        `SELECT id, "platformId", seq, "fromEventId", "toEventId", count, "eventsRoot", "previousHash", "keyId",
                "sealedAt", hash, signature FROM "AuditCheckpoint" WHERE "platformId" = $1 ORDER BY seq`,
        [platform],
      );
      expect(checkpoints.length).toBeGreaterThan(0);
      // The tenant's events came before and after the hand-over: sealed by one process's key, then the other's.
      if (platform === tenantId) expect(new Set(checkpoints.map((checkpoint) => checkpoint.keyId)).size).toBe(2);
      expect(checkpoints.map((checkpoint) => checkpoint.seq)).toEqual(checkpoints.map((_, index) => index + 1));
      for (const [index, checkpoint] of checkpoints.entries()) {
        expect(checkpoint.previousHash).toBe(index === 0 ? null : checkpoints[index - 1]!.hash);
        const hash = createHash("sha256")
          .update(checkpointHashJson({ ...checkpoint, sealedAt: checkpoint.sealedAt.toISOString() }))
          .digest();
        expect(hash.toString("hex")).toBe(checkpoint.hash);
        const publicKey = keys.get(checkpoint.keyId);
        expect(publicKey, `key ${checkpoint.keyId}`).toBeDefined();
        expect(verify(null, hash, publicKey!, Buffer.from(checkpoint.signature, "base64"))).toBe(true);
      }
      const perCheckpoint = await query<{ checkpointId: string; count: string }>(
        `SELECT "checkpointId", count(*) FROM "AuditEvent" WHERE "platformId" = $1 GROUP BY 1`,
        [platform],
      );
      expect(Object.fromEntries(perCheckpoint.map((row) => [row.checkpointId, Number(row.count)]))).toEqual(
        Object.fromEntries(checkpoints.map((checkpoint) => [checkpoint.id, checkpoint.count])),
      );
    }
    // The tenant's NDJSON export, from the process still running, verifies offline with the keys the
    // public key endpoint lists: the one of each process, with the checkpoints each signed.
    const asTenant = { headers: { authorization: `Bearer ${key}` } };
    const exported = await httpRequest(`${staying.baseURL}/v1/exports/audit_events?format=ndjson`, asTenant);
    expect(exported.status, exported.body).toBe(200);
    const listed = await httpRequest(`${staying.baseURL}/v1/audit_events/public_key`, asTenant);
    expect(listed.status, listed.body).toBe(200);
    const signers = (listed.json().keys as { publicKey: string; firstSeq: number | null }[]).filter(
      (signer) => signer.firstSeq !== null,
    );
    expect(signers).toHaveLength(2);
    const verdict = await verifyAuditExport(
      (async function* () {
        yield* exported.body.split("\n");
      })(),
      { publicKeys: signers.map((signer) => createPublicKey(signer.publicKey)) },
    );
    expect(verdict).toMatchObject({ intact: true });

    // The tenant's 60 recipients and their events, all sealed; both processes' keys are known.
    const tenantEvents = await query<{ count: string }>(
      `SELECT count(*) FROM "AuditEvent" WHERE "platformId" = $1 AND action LIKE '%recipient%'`,
      [tenantId],
    );
    expect(Number(tenantEvents[0]!.count)).toBeGreaterThanOrEqual(60);
  });
});
