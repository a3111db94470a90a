import { rmSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkKeyCustody } from "@/lib/auth/key-custody";
import { AUDIT_SIGNING_KEY_FILE, auditSigningKey, resetAuditSigningKey } from "@/lib/audit/seal/signing-key";
import { db } from "@/lib/db";
import { dataDirectory, resetEnv } from "@/lib/env";
import { newId } from "@/lib/ids/generate";
import { signedInEmployee } from "@/lib/testing/factories";

// In a file of its own: the checkpoint it makes stays in this file's database (checkpoints cannot be removed).

describe("start-up's custody of the audit signing key", () => {
  it("refuses a generated audit key where checkpoints exist; AUDIT_SIGNING_KEY is a deliberate rotation", async () => {
    const { account } = await signedInEmployee();
    const file = path.join(dataDirectory(), AUDIT_SIGNING_KEY_FILE);
    rmSync(file, { force: true });
    await expect(checkKeyCustody()).resolves.toBeUndefined();
    await db().auditCheckpoint.create({
      data: {
        id: newId("ckp"),
        platformId: account.id,
        seq: 1,
        fromEventId: "a",
        toEventId: "b",
        count: 1,
        eventsRoot: "00",
        hash: "00",
        signature: "sig",
        keyId: "ask_signed_it",
        sealedAt: new Date(),
        leafHashes: Buffer.alloc(32),
      },
    });
    await expect(checkKeyCustody()).rejects.toThrow(
      /^No audit signing key: AUDIT_SIGNING_KEY is not set and .*audit-signing\.key does not exist, but the audit trail has checkpoints signed by ask_signed_it/,
    );
    // The file restored: its key goes on signing.
    resetAuditSigningKey();
    auditSigningKey();
    await expect(checkKeyCustody()).resolves.toBeUndefined();
    // Or a key the operator chose: a rotation they asked for.
    rmSync(file);
    process.env.AUDIT_SIGNING_KEY = (await import("node:crypto"))
      .generateKeyPairSync("ed25519")
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString();
    resetEnv();
    try {
      await expect(checkKeyCustody()).resolves.toBeUndefined();
    } finally {
      delete process.env.AUDIT_SIGNING_KEY;
      resetEnv();
    }
  });
});
