import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ciphertextKeyId,
  decryptSecret,
  ENCRYPTION_KEY_FILE,
  encryptionKeyId,
  encryptSecret,
  keyRing,
  resetEncryptionKey,
} from "@/lib/auth/encryption";
import { checkKeyCustody, KeyCustodyError } from "@/lib/auth/key-custody";
import { reencryptAll } from "@/lib/auth/reencrypt";
import {
  ENCRYPTED_COLUMNS,
  idempotencyContext,
  replaceCiphertext,
  rowsNotUnder,
  ssoSecretContext,
} from "@/lib/auth/secrets-at-rest";
import {
  AUDIT_SIGNING_KEY_CONTEXT,
  AUDIT_SIGNING_KEY_FILE,
  auditSigningKey,
  resetAuditSigningKey,
} from "@/lib/audit/seal/signing-key";
import { db } from "@/lib/db";
import { dataDirectory, resetEnv } from "@/lib/env";
import { newId } from "@/lib/ids/generate";
import { saveSsoConnection } from "@/lib/sso/connection";
import { signedInEmployee } from "@/lib/testing/factories";

// One test file's database serves every test here: each test starts by emptying what it looks at.

const keyFile = () => path.join(dataDirectory(), ENCRYPTION_KEY_FILE);
const auditKeyFile = () => path.join(dataDirectory(), AUDIT_SIGNING_KEY_FILE);
const hex = (key: Buffer) => key.toString("hex");

function useKeys({ current, previous }: { current?: Buffer; previous?: Buffer[] }) {
  if (current) process.env.ENCRYPTION_KEY = hex(current);
  else delete process.env.ENCRYPTION_KEY;
  if (previous) process.env.ENCRYPTION_KEYS_PREVIOUS = previous.map(hex).join(",");
  else delete process.env.ENCRYPTION_KEYS_PREVIOUS;
  resetEnv();
  resetEncryptionKey();
  resetAuditSigningKey();
}

async function emptySecrets() {
  await db().employee.updateMany({ data: { totpSecret: null, totpPendingSecret: null } });
  await db().idempotencyKey.deleteMany();
  await db().ssoConnection.deleteMany();
  await db().webhookDelivery.deleteMany();
  await db().webhookEndpoint.deleteMany();
  rmSync(auditKeyFile(), { force: true });
}

/** One secret in every encrypted column, under the current key; their plaintexts. */
async function secretsEverywhere() {
  const { employee, account } = await signedInEmployee();
  const id = newId("we");
  await db().employee.update({
    where: { id: employee.id },
    data: {
      totpSecret: encryptSecret("totp secret", employee.id),
      totpPendingSecret: encryptSecret("pending", employee.id),
    },
  });
  await db().webhookEndpoint.create({
    data: {
      id,
      accountId: account.id,
      url: "https://example.com/hook",
      subscribedEvents: [],
      publicKey: "pem",
      privateKey: encryptSecret("private pem", id),
    },
  });
  await saveSsoConnection(account.id, {
    issuer: "https://idp.example.com",
    clientId: "client",
    clientSecret: "sso secret",
    allowedDomains: [],
    enforced: false,
  });
  const claim = { credential: `employee:${employee.id}`, key: "k1" };
  const now = new Date();
  await db().idempotencyKey.create({
    data: {
      ...claim,
      fingerprint: "f",
      status: 201,
      body: encryptSecret('{"kept":true}', idempotencyContext(claim)),
      startedAt: now,
      expiresAt: new Date(now.getTime() + 60_000),
    },
  });
  auditSigningKey();
  return { employee, endpointId: id, platformId: account.id, claim };
}

/** Every secret read back with the keys configured now. */
async function readAll(ids: Awaited<ReturnType<typeof secretsEverywhere>>) {
  const employee = await db().employee.findUniqueOrThrow({ where: { id: ids.employee.id } });
  const endpoint = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: ids.endpointId } });
  const sso = await db().ssoConnection.findUniqueOrThrow({ where: { platformId: ids.platformId } });
  const kept = await db().idempotencyKey.findUniqueOrThrow({ where: { credential_key: ids.claim } });
  resetAuditSigningKey();
  return {
    totp: decryptSecret(employee.totpSecret!, employee.id),
    pending: decryptSecret(employee.totpPendingSecret!, employee.id),
    webhook: decryptSecret(endpoint.privateKey, endpoint.id),
    sso: decryptSecret(sso.clientSecretEncrypted, ssoSecretContext(ids.platformId)),
    kept: decryptSecret(kept.body!, idempotencyContext(ids.claim)),
    auditKeyId: auditSigningKey().id,
  };
}

const custodyError = async () => {
  try {
    await checkKeyCustody();
    return null;
  } catch (error) {
    if (error instanceof KeyCustodyError) return error.message;
    throw error;
  }
};

beforeEach(async () => {
  useKeys({});
  await emptySecrets();
});

afterEach(() => useKeys({}));

describe("start-up's key custody", () => {
  it("lets a key be generated where nothing is encrypted yet", async () => {
    rmSync(keyFile(), { force: true });
    expect(await custodyError()).toBeNull();
    expect(existsSync(keyFile())).toBe(false);
  });

  it("refuses to start without the key file over encrypted data, naming ENCRYPTION_KEY and the file, and writes nothing", async () => {
    await secretsEverywhere();
    const before = readdirSync(dataDirectory()).sort();
    const kept = `${keyFile()}.kept`;
    renameSync(keyFile(), kept);
    try {
      resetEncryptionKey();
      const message = await custodyError();
      expect(message).toMatch(
        /^No encryption key: ENCRYPTION_KEY is not set and .*totp-encryption\.key does not exist/,
      );
      expect(message).toContain("TOTP secrets");
      expect(message).toContain("the audit signing key");
      expect(existsSync(keyFile())).toBe(false);
      expect(readdirSync(dataDirectory()).sort()).toEqual(
        before
          .filter((name) => name !== ENCRYPTION_KEY_FILE)
          .concat(`${ENCRYPTION_KEY_FILE}.kept`)
          .sort(),
      );
    } finally {
      renameSync(kept, keyFile());
    }
  });

  it("refuses an ENCRYPTION_KEY that is not the one the data was written with, naming the missing key", async () => {
    await secretsEverywhere();
    const fileKeyId = keyRing().current.id;
    useKeys({ current: randomBytes(32) });
    const message = await custodyError();
    expect(message).toContain(`encrypted with key ${fileKeyId}`);
    expect(message).toContain("ENCRYPTION_KEY nor ENCRYPTION_KEYS_PREVIOUS");
  });

  it("refuses a key that opens no ciphertext written before they named their key (v1)", async () => {
    const { employee } = await signedInEmployee();
    const other = randomBytes(32);
    useKeys({ current: other });
    const v1 = ["v1", ...encryptSecret("totp secret", employee.id).split(".").slice(2)].join(".");
    await db().employee.update({ where: { id: employee.id }, data: { totpSecret: v1 } });
    expect(await custodyError()).toBeNull();
    useKeys({ current: randomBytes(32) });
    expect(await custodyError()).toMatch(/TOTP secrets were encrypted with a key that neither ENCRYPTION_KEY/);
    useKeys({ current: randomBytes(32), previous: [other] });
    expect(await custodyError()).toBeNull();
  });
});

describe("npm run keys:reencrypt", () => {
  it("rewrites every secret under the new key; then the new key alone opens them all", async () => {
    const oldKey = randomBytes(32);
    useKeys({ current: oldKey });
    const ids = await secretsEverywhere();
    const before = await readAll(ids);
    const newKey = randomBytes(32);
    useKeys({ current: newKey, previous: [oldKey] });
    expect(await custodyError()).toBeNull();
    const report = await reencryptAll({ batchSize: 1 });
    expect(report.every(({ rewritten }) => rewritten === 1)).toBe(true);
    expect(report).toHaveLength(ENCRYPTED_COLUMNS.length + 1);
    for (const column of ENCRYPTED_COLUMNS)
      expect(await rowsNotUnder(column, encryptionKeyId(newKey), { limit: 10 }), column.label).toEqual([]);
    expect(ciphertextKeyId(readFileSync(auditKeyFile(), "utf8").trim())).toBe(encryptionKeyId(newKey));
    // Again: nothing left to do.
    expect((await reencryptAll()).every(({ rewritten }) => rewritten === 0)).toBe(true);
    useKeys({ current: newKey });
    expect(await custodyError()).toBeNull();
    expect(await readAll(ids)).toEqual(before);
    expect(decryptSecret(readFileSync(auditKeyFile(), "utf8").trim(), AUDIT_SIGNING_KEY_CONTEXT)).toContain(
      "PRIVATE KEY",
    );
  });

  it("leaves a row the service changed after it was read (the change wins)", async () => {
    const oldKey = randomBytes(32);
    useKeys({ current: oldKey });
    const { employee } = await signedInEmployee();
    await db().employee.update({
      where: { id: employee.id },
      data: { totpSecret: encryptSecret("first", employee.id) },
    });
    const column = ENCRYPTED_COLUMNS.find((candidate) => candidate.column === "totpSecret")!;
    const newKey = randomBytes(32);
    useKeys({ current: newKey, previous: [oldKey] });
    const [read] = await rowsNotUnder(column, encryptionKeyId(newKey), { limit: 10 });
    await db().employee.update({
      where: { id: employee.id },
      data: { totpSecret: encryptSecret("second", employee.id) },
    });
    expect(await replaceCiphertext(column, read!, encryptSecret("first", employee.id))).toBe(false);
    const row = await db().employee.findUniqueOrThrow({ where: { id: employee.id } });
    expect(decryptSecret(row.totpSecret!, employee.id)).toBe("second");
  });

  it("stops with the key it cannot find rather than skip a secret", async () => {
    const oldKey = randomBytes(32);
    useKeys({ current: oldKey });
    await secretsEverywhere();
    useKeys({ current: randomBytes(32) });
    await expect(reencryptAll()).rejects.toThrow(encryptionKeyId(oldKey));
  });
});
