import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signingKeyId } from "@/lib/audit/seal/key-id";
import { sealBatch } from "@/lib/audit/seal/sealer";
import { verifyAuditExport } from "@/lib/audit/seal/verify";
import { writeAuditEvent } from "@/lib/audit/trail";
import { inTransaction } from "@/lib/db";
import { auditTrailChunks } from "@/lib/exports/audit-trail";
import { newId } from "@/lib/ids/generate";
import { platformWithKey } from "@/lib/testing/factories";

const { privateKey, publicKey } = generateKeyPairSync("ed25519");
const key = {
  id: signingKeyId(publicKey),
  privateKey,
  publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
};
const settings = { now: () => new Date(), batchSize: 1000 };

async function audited(platformId: string, count: number) {
  for (let n = 0; n < count; n++)
    await inTransaction(() =>
      writeAuditEvent({
        actor: null,
        platformId,
        action: "export.test.race",
        targetId: null,
        ip: null,
        status: 200,
        requestId: newId("aud").replace("aud_", "req_"),
      }),
    );
}

describe("the NDJSON export while the sealer runs", () => {
  it("leaves out the events a checkpoint sealed after the checkpoints were read: the export still verifies", async () => {
    const { account } = await platformWithKey();
    await audited(account.id, 3);
    await sealBatch(account.id, key, settings);
    await audited(account.id, 2);

    const lines: string[] = [];
    const chunks = auditTrailChunks(account.id);
    // Read up to the first (and only) checkpoint line; then the sealer seals the two pending events.
    while (!lines.some((text) => text.includes('"type":"checkpoint"'))) {
      const { value } = await chunks.next();
      lines.push(...value!.text.split("\n").filter(Boolean));
    }
    const second = await sealBatch(account.id, key, settings);
    expect(second).toMatchObject({ seq: 2, count: 2 });
    for await (const chunk of chunks) lines.push(...chunk.text.split("\n").filter(Boolean));

    expect(lines.filter((text) => text.includes('"type":"event"'))).toHaveLength(3);
    const header = JSON.stringify({
      type: "export",
      format: "audit-ndjson/1",
      platformId: account.id,
      exportedAt: new Date().toISOString(),
    });
    const verdict = await verifyAuditExport(
      (async function* () {
        yield* [header, ...lines];
      })(),
      { publicKeys: [publicKey] },
    );
    expect(verdict).toMatchObject({ intact: true, events: 3, checkpoints: 1, pending: 0 });
  });
});
