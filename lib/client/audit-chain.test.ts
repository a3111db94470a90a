import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { CheckpointJson } from "@/lib/audit/seal/format";
import { signCheckpoint } from "@/lib/audit/seal/sealer";
import { signingKeyId, type AuditSigningKey } from "@/lib/audit/seal/signing-key";
import { chainChecker, supportsEd25519 } from "@/lib/client/audit-chain";

function testKey(): AuditSigningKey {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const publicKeyPem = publicKey.export({ type: "spki", format: "pem" }).toString().trim();
  return { id: signingKeyId(publicKey), privateKey, publicKeyPem };
}

/** A chain of `count` checkpoints signed as the sealer signs them; `keyFor(seq)` picks each one's key. */
function chainOf(count: number, keyFor: (seq: number) => AuditSigningKey, eventsRoot = "ab".repeat(32)) {
  const chain: CheckpointJson[] = [];
  for (let seq = 1; seq <= count; seq++) {
    const key = keyFor(seq);
    chain.push(
      signCheckpoint(
        {
          id: `ckp_${seq}`,
          platformId: "acct_1",
          seq,
          fromEventId: `aud_${seq}a`,
          toEventId: `aud_${seq}b`,
          count: 2,
          eventsRoot,
          previousHash: chain.at(-1)?.hash ?? null,
          keyId: key.id,
          sealedAt: new Date(Date.UTC(2026, 10, 26, 9, 0, seq)).toISOString(),
        },
        key,
      ),
    );
  }
  return chain;
}

const keysOf = (...keys: AuditSigningKey[]) => new Map(keys.map((key) => [key.id, key.publicKeyPem]));

async function verdictOf(chain: CheckpointJson[], keys: Map<string, string>, pageSize = 2) {
  const checker = chainChecker(keys);
  for (let i = 0; i < chain.length; i += pageSize) if (!(await checker.check(chain.slice(i, i + pageSize)))) break;
  return checker.verdict();
}

describe("the Verify page's chain check (WebCrypto)", () => {
  const a = testKey();
  const b = testKey();

  it("holds for an untouched chain, across pages and a key rotation", async () => {
    const chain = chainOf(5, (seq) => (seq <= 3 ? a : b));
    const verdict = await verdictOf(chain, keysOf(a, b));
    expect(verdict).toEqual({ verified: 5, last: chain[4], broken: null });
    expect(await supportsEd25519(a.publicKeyPem)).toBe(true);
  });

  it("holds for no checkpoints at all", async () => {
    expect(await verdictOf([], keysOf(a))).toEqual({ verified: 0, last: null, broken: null });
  });

  it.each([
    ["a changed field", (c: CheckpointJson) => ({ ...c, count: 3 }), /contents do not match its hash/],
    [
      "a changed field with its hash recomputed",
      (c: CheckpointJson) => {
        const { hash: _hash, signature, ...rest } = c;
        return { ...signCheckpoint({ ...rest, count: 3 }, testKey()), keyId: c.keyId, signature };
      },
      /signature does not verify/,
    ],
    [
      "a signature that is not base64",
      (c: CheckpointJson) => ({ ...c, signature: "%%%" }),
      /signature does not verify/,
    ],
    [
      "a key the service does not list",
      (c: CheckpointJson) => {
        const unlisted = testKey();
        const { hash: _hash, signature: _signature, ...rest } = c;
        return signCheckpoint({ ...rest, keyId: unlisted.id }, unlisted);
      },
      /does not list/,
    ],
  ])("names the checkpoint with %s", async (_label, tamper, reason) => {
    const chain = chainOf(4, () => a);
    chain[2] = tamper(chain[2]!);
    const verdict = await verdictOf(chain, keysOf(a));
    expect(verdict.verified).toBe(2);
    expect(verdict.last).toBe(chain[1]);
    expect(verdict.broken).toEqual({ seq: 3, id: "ckp_3", reason: expect.stringMatching(reason) });
  });

  it("names a gap, a reordering and a re-signed fork by where the chain breaks", async () => {
    const chain = chainOf(4, () => a);
    expect((await verdictOf([chain[0]!, chain[2]!, chain[3]!], keysOf(a))).broken).toMatchObject({
      seq: 3,
      reason: expect.stringMatching(/seq is 3 where 2 was expected/),
    });
    expect((await verdictOf([chain[1]!, chain[0]!], keysOf(a))).broken).toMatchObject({ seq: 2 });
    // Another chain from seq 2 on, signed with the right key: its first link does not name checkpoint 1's hash.
    const other = chainOf(4, () => a, "ef".repeat(32));
    expect((await verdictOf([chain[0]!, ...other.slice(1)], keysOf(a))).broken).toMatchObject({
      seq: 2,
      reason: expect.stringMatching(/previousHash is not the hash of checkpoint 1/),
    });
    const first = { ...chain[0]!, previousHash: "cd".repeat(32) };
    expect((await verdictOf([first], keysOf(a))).broken?.reason).toMatch(/first checkpoint but names a previous hash/);
  });
});
