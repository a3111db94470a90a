import { createPublicKey, createHash, generateKeyPairSync, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { POST as issueKey } from "@/app/v1/api_keys/route";
import { checkpointHashJson } from "@/lib/audit/seal/format";
import { sealPendingEvents } from "@/lib/audit/seal/sealer";
import { resetAuditSigningKey } from "@/lib/audit/seal/signing-key";
import { resetEnv } from "@/lib/env";
import { unsetEnvAfterEach } from "@/lib/testing/env";
import { inDays, nextMillisecond, platformWithKey } from "@/lib/testing/factories";
import { call, cursorOf, expectEachIdOnce, expectError } from "@/lib/testing/http";
import { GET as publicKey } from "../public_key/route";
import { GET } from "./route";

const checkpoints = (apiKey: string, query: Record<string, string> = {}) =>
  call(GET, { apiKey, path: `/v1/audit_events/checkpoints?${new URLSearchParams(query)}` });
const publicKeys = (apiKey: string) => call(publicKey, { apiKey, path: "/v1/audit_events/public_key" });

unsetEnvAfterEach("AUDIT_SIGNING_KEY");

/** Signs from now on with a fresh key given as AUDIT_SIGNING_KEY (a rotation), answering its PEM. */
function rotateSigningKey(): string {
  const { privateKey } = generateKeyPairSync("ed25519");
  process.env.AUDIT_SIGNING_KEY = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  resetEnv();
  resetAuditSigningKey();
  return createPublicKey(privateKey).export({ type: "spki", format: "pem" }).toString().trim();
}

/** Makes `count` audit events of the key's platform (each a key issued), then seals every pending event. */
async function sealedEvents(apiKey: string, count: number) {
  for (let i = 0; i < count; i++) {
    expect((await call(issueKey, { method: "POST", apiKey, body: { expiresAt: inDays(10) } })).status).toBe(201);
    await nextMillisecond();
  }
  await sealPendingEvents({ owner: "checkpoints-route-test", batchSize: 1 });
}

describe("GET /v1/audit_events/checkpoints", () => {
  it("200: the platform's checkpoints, newest first, each hashed over its canonical JSON and signed", async () => {
    rotateSigningKey();
    const { apiKey, account } = await platformWithKey();
    await sealedEvents(apiKey, 2);
    const { status, body } = await checkpoints(apiKey);
    expect(status).toBe(200);
    expect(body.items.length).toBeGreaterThanOrEqual(2);
    expect(body.items.map((item) => item.seq)).toEqual(body.items.map((_, index) => body.items.length - index));
    const keys = (await publicKeys(apiKey)).body;
    for (const [index, checkpoint] of body.items.entries()) {
      expect(checkpoint.platformId).toBe(account.id);
      expect(checkpoint.previousHash).toBe(body.items[index + 1]?.hash ?? null);
      const hash = createHash("sha256").update(checkpointHashJson(checkpoint)).digest();
      expect(checkpoint.hash).toBe(hash.toString("hex"));
      const pem = keys.keys.find((key) => key.id === checkpoint.keyId)!.publicKey;
      expect(verify(null, hash, createPublicKey(pem), Buffer.from(checkpoint.signature, "base64"))).toBe(true);
    }
    expect(JSON.stringify(body)).not.toContain("leafHashes");
  });

  it("pages by seq in both orders, every checkpoint exactly once", async () => {
    const { apiKey } = await platformWithKey();
    await sealedEvents(apiKey, 4);
    const all = (await checkpoints(apiKey, { limit: "100" })).body.items;
    expect(all.length).toBe(4);
    await expectEachIdOnce(
      (query) => checkpoints(apiKey, query),
      all.map((item) => item.id),
      { limit: "2", pageCount: Math.ceil(all.length / 2) },
    );
    const oldest = await checkpoints(apiKey, { order: "asc", limit: "1" });
    expect(oldest.body.items[0]).toMatchObject({ seq: 1, previousHash: null });
  });

  it("never shows another platform's checkpoints", async () => {
    const mine = await platformWithKey();
    const theirs = await platformWithKey();
    await sealedEvents(theirs.apiKey, 2);
    await sealedEvents(mine.apiKey, 1);
    const theirIds = (await checkpoints(theirs.apiKey, { limit: "100" })).body.items.map((item) => item.id);
    const { body } = await checkpoints(mine.apiKey, { limit: "100" });
    expect(body.items.length).toBeGreaterThan(0);
    expect(body.items.every((item) => item.platformId === mine.account.id)).toBe(true);
    expect(body.items.map((item) => item.id).filter((id) => theirIds.includes(id))).toEqual([]);
  });

  it("400: a cursor this API never issued, or one of the other order", async () => {
    const { apiKey } = await platformWithKey();
    await sealedEvents(apiKey, 3);
    for (const next of ["nonsense", "!!", Buffer.from('["x","desc"]').toString("base64url")])
      expectError(await checkpoints(apiKey, { next }), 400, "err_bad_request");
    const page = await checkpoints(apiKey, { limit: "1" });
    expectError(await checkpoints(apiKey, { next: cursorOf(page), order: "asc" }), 400, "err_bad_request");
  });

  it("403: a key without audit_log:read", async () => {
    const { apiKey } = await platformWithKey({ permissions: ["api_keys:read"] });
    expectError(await checkpoints(apiKey), 403, "err_forbidden");
  });
});

describe("GET /v1/audit_events/public_key", () => {
  it("200: the key signing now, listed with nulls before it has signed one of the platform's checkpoints", async () => {
    const pem = rotateSigningKey();
    const { apiKey } = await platformWithKey();
    const { status, body } = await publicKeys(apiKey);
    expect(status).toBe(200);
    expect(body).toEqual({
      algorithm: "Ed25519",
      keyId: expect.stringMatching(/^ask_[0-9a-f]{24}$/),
      publicKey: pem,
      keys: [
        {
          id: body.keyId,
          publicKey: pem,
          createdAt: null,
          firstSeq: null,
          lastSeq: null,
          firstSealedAt: null,
          lastSealedAt: null,
        },
      ],
    });
  });

  it("after a rotation lists the old key with the seqs it signed, and the new one from the next checkpoint on", async () => {
    const { apiKey } = await platformWithKey();
    const other = await platformWithKey();
    const first = rotateSigningKey();
    await sealedEvents(apiKey, 1);
    const keyA = (await publicKeys(apiKey)).body.keyId;
    const lastOfA = (await checkpoints(apiKey, { limit: "1" })).body.items[0]!;
    const second = rotateSigningKey();
    await sealedEvents(apiKey, 1);
    // Another platform's checkpoints under a third key: never in this platform's list.
    rotateSigningKey();
    await sealedEvents(other.apiKey, 1);
    const third = (await publicKeys(other.apiKey)).body.keyId;
    rotateSigningKey();
    await sealedEvents(apiKey, 0);

    const all = (await checkpoints(apiKey, { limit: "100", order: "asc" })).body.items;
    const { body } = await publicKeys(apiKey);
    const [a, b, current] = body.keys;
    expect(body.keys).toHaveLength(3);
    expect(a).toMatchObject({ id: keyA, publicKey: first, firstSeq: 1, lastSeq: lastOfA.seq });
    expect(a!.lastSealedAt).toBe(lastOfA.sealedAt);
    expect(a!.createdAt).toEqual(expect.any(String));
    expect(b).toMatchObject({ publicKey: second, firstSeq: lastOfA.seq + 1, lastSeq: all.at(-1)!.seq });
    expect(all.filter((checkpoint) => checkpoint.seq > lastOfA.seq).every((c) => c.keyId === b!.id)).toBe(true);
    expect(current).toMatchObject({ id: body.keyId, firstSeq: null, lastSeq: null });
    expect(body.keys.map((key) => key.id)).not.toContain(third);
  });

  it("403: a key without audit_log:read", async () => {
    const { apiKey } = await platformWithKey({ permissions: ["api_keys:read"] });
    expectError(await publicKeys(apiKey), 403, "err_forbidden");
  });
});
