import { spawn } from "node:child_process";
import { verify } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { expect, test } from "@playwright/test";
import { authenticatorFor, httpRequest, OWNER, startReceiver, startServer, type Server } from "./fixtures";
import { createDatabase, missingPostgresql } from "./postgresql-fixture";

// The restore drill an operations team runs, on real processes: a writer keeps writing while `npm run
// backup` copies the database and the key files; the copy is restored into an empty place; there the
// row counts equal the manifest's, the owner signs in with their authenticator, a webhook is signed
// with the endpoint's old key, and the audit export verifies under the same signing key. Restored
// without the key files, the server refuses to start, naming the key, and writes nothing. A rotation
// re-encrypts everything under a new key, and the server then runs on the new key alone.

const root = path.resolve(__dirname, "..");
const scratch = () => mkdtempSync(path.join(os.tmpdir(), "pmc-drill-"));

type Target = { url: string; dataDir: string; drop?: () => Promise<void> };

/** Runs `npm run <script> -- args` as an operator would, with the target's settings; its outcome. */
function npmRun(script: string, args: string[], target: Target, env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn("npm", ["run", "--silent", script, "--", ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: target.url, DATA_DIR: target.dataDir, ...env },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

/** Every table's row count, as the manifest counts them (the migrations' own table aside). */
async function rowCounts(target: Target): Promise<Record<string, number>> {
  if (target.url.startsWith("file:")) {
    const db = new Database(target.url.slice("file:".length), { readonly: true });
    try {
      const tables = db
        .prepare(
          `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_migrations'`,
        )
        .pluck()
        .all() as string[];
      return Object.fromEntries(
        tables.map((name) => [name, db.prepare(`SELECT count(*) FROM "${name}"`).pluck().get() as number]),
      );
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> '_migrations'`,
    );
    const counts: Record<string, number> = {};
    for (const { name } of rows)
      counts[name] = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${name}"`)).rows[0]!.n;
    return counts;
  } finally {
    await client.end();
  }
}

const sorted = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).sort());

/** A call to `server` as the owner's browser would make it (same origin). */
const caller =
  (server: Server) =>
  (route: string, body?: unknown, headers: Record<string, string> = {}) =>
    httpRequest(`${server.baseURL}${route}`, {
      method: body === undefined ? "GET" : "POST",
      body,
      headers: { origin: server.baseURL, ...headers },
    });

/** First-run setup, 2FA, a signed-in session and a webhook endpoint to `receiverUrl`. */
async function installation(server: Server, receiverUrl: string) {
  const call = caller(server);
  const setup = await call("/v1/setup", OWNER);
  expect(setup.status, setup.body).toBe(201);
  const firstCookie = setup.headers["set-cookie"]![0]!.split(";")[0]!;
  const started = await call("/v1/employees/totp", { password: OWNER.password }, { cookie: firstCookie });
  expect(started.status, started.body).toBe(200);
  const secret = started.json().secret as string;
  const authenticator = authenticatorFor(secret);
  const confirmed = await call(
    "/v1/employees/totp/confirm",
    { code: await authenticator.next() },
    { cookie: firstCookie },
  );
  expect(confirmed.status, confirmed.body).toBe(200);
  const cookie = await signIn(server, authenticator);
  const endpoint = await call(
    "/v1/webhook_endpoints",
    { url: receiverUrl, events: ["webhook.test"] },
    { cookie, "service-totp-code": await authenticator.next() },
  );
  expect(endpoint.status, endpoint.body).toBe(201);
  return {
    authenticator,
    cookie,
    endpointId: endpoint.json().id as string,
    publicKey: endpoint.json().publicKey as string,
  };
}

async function signIn(server: Server, authenticator: ReturnType<typeof authenticatorFor>) {
  const { email, password } = OWNER;
  const signedIn = await caller(server)("/v1/sessions", { email, password, totpCode: await authenticator.next() });
  expect(signedIn.status, signedIn.body).toBe(200);
  return signedIn.headers["set-cookie"]![0]!.split(";")[0]!;
}

/** A test delivery from `server`, received and signed with `publicKey`. */
async function signedDelivery(
  server: Server,
  cookie: string,
  endpointId: string,
  receiver: Awaited<ReturnType<typeof startReceiver>>,
  publicKey: string,
) {
  const sent = await caller(server)(`/v1/webhook_endpoints/${endpointId}/test`, {}, { cookie });
  expect(sent.status, sent.body).toBeLessThan(300);
  const id = sent.json().id as string;
  await expect
    .poll(() => receiver.received.some((request) => request.headers["webhook-id"] === id), { timeout: 60_000 })
    .toBe(true);
  const delivery = receiver.received.find((request) => request.headers["webhook-id"] === id)!;
  const signature = Buffer.from(String(delivery.headers["x-webhook-signature"]), "hex");
  expect(
    verify(null, Buffer.from(delivery.body), publicKey, signature),
    "signed with the endpoint's key from before the backup",
  ).toBe(true);
}

/** The audit trail's NDJSON export verifies offline with the public key the server publishes. */
async function auditVerifies(server: Server, cookie: string, work: string) {
  const keys = await caller(server)("/v1/audit_events/public_key", undefined, { cookie });
  expect(keys.status, keys.body).toBe(200);
  const keyFile = path.join(work, "audit-public-key.json");
  writeFileSync(keyFile, keys.body);
  let verdict = "";
  await expect
    .poll(
      async () => {
        const exported = await caller(server)("/v1/exports/audit_events?format=ndjson", undefined, { cookie });
        expect(exported.status).toBe(200);
        const file = path.join(work, "audit.ndjson");
        writeFileSync(file, exported.body);
        const result = await npmRun("audit:verify", [file, "--public-key", keyFile], { url: "", dataDir: work });
        verdict = result.output;
        return result.code;
      },
      { timeout: 60_000, intervals: [500] },
    )
    .toBe(0);
  expect(verdict).toMatch(/^Intact: \d+ events in \d+ checkpoints/m);
  // The signing keys (not how far each has signed): a restore goes on with the same one, and no other.
  const { keys: published } = keys.json() as { keys: { id: string; publicKey: string }[] };
  return published.map(({ id, publicKey }) => ({ id, publicKey }));
}

const serverEnv = (target: Target, extra: Record<string, string> = {}) => ({
  DATABASE_URL: target.url,
  AUDIT_SEAL_INTERVAL_MS: "200",
  WEBHOOK_POLL_MS: "50",
  ...extra,
});

/** The place a backup is restored into: an empty data directory, and an empty database of the same kind. */
async function emptyTarget(kind: "sqlite" | "postgresql"): Promise<Target> {
  const dataDir = scratch();
  if (kind === "sqlite") return { url: `file:${path.join(dataDir, "app.db")}`, dataDir };
  const database = await createDatabase();
  return { url: database.url, dataDir, drop: database.drop };
}

for (const kind of ["sqlite", "postgresql"] as const) {
  test.describe(`the restore drill on ${kind === "sqlite" ? "SQLite" : "PostgreSQL"}`, () => {
    test.beforeAll(async () => {
      if (kind === "postgresql") {
        const missing = await missingPostgresql();
        test.skip(missing !== null, `no PostgreSQL server: ${missing}`);
      }
    });

    test("back up under writes, restore into an empty place, sign in, deliver, verify; no keys, no start; rotate", async () => {
      test.setTimeout(480_000);
      const work = scratch();
      const receiver = await startReceiver();
      const targets: Target[] = [];
      const servers: Server[] = [];
      try {
        const source = await emptyTarget(kind);
        targets.push(source);
        const first = await startServer(serverEnv(source), source.dataDir);
        servers.push(first);
        const owner = await installation(first, receiver.url);
        const auditKeysBefore = await auditVerifies(first, owner.cookie, work);

        // A writer keeps writing (each test delivery is a delivery row and an audit event) while the backup runs.
        let writing = true;
        let written = 0;
        const writer = (async () => {
          while (writing) {
            const sent = await caller(first)(
              `/v1/webhook_endpoints/${owner.endpointId}/test`,
              {},
              { cookie: owner.cookie },
            );
            expect(sent.status, sent.body).toBeLessThan(300);
            written += 1;
          }
        })();
        await expect.poll(() => written, { timeout: 30_000 }).toBeGreaterThan(2);
        const backupDir = path.join(work, "backup");
        const writtenBefore = written;
        const backup = await npmRun("backup", [backupDir], source);
        const writtenDuringBackup = written - writtenBefore;
        writing = false;
        await writer;
        expect(backup.output).not.toContain("postgres:postgres@");
        expect(backup.code, backup.output).toBe(0);
        expect(writtenDuringBackup, "the writer wrote while the backup ran").toBeGreaterThan(0);
        await first.stop();
        const manifest = JSON.parse(readFileSync(path.join(backupDir, "manifest.json"), "utf8")) as {
          rows: Record<string, number>;
          files: Record<string, string>;
        };
        expect(Object.keys(manifest.files).some((name) => name.endsWith("totp-encryption.key"))).toBe(true);
        expect(Object.keys(manifest.files).some((name) => name.endsWith("audit-signing.key"))).toBe(true);

        // Restored into an empty place: the same rows, the same keys.
        const restored = await emptyTarget(kind);
        targets.push(restored);
        const restore = await npmRun("restore", [backupDir], restored);
        expect(restore.code, restore.output).toBe(0);
        expect(sorted(await rowCounts(restored))).toEqual(sorted(manifest.rows));
        // A second restore over it is refused: it holds data now.
        const again = await npmRun("restore", [backupDir], restored);
        expect(again.code).toBe(1);

        const second = await startServer(serverEnv(restored), restored.dataDir);
        servers.push(second);
        // The owner's phone: its codes are the same on any copy, and a code spent before the backup stays spent.
        const { authenticator } = owner;
        const cookie = await signIn(second, authenticator);
        await signedDelivery(second, cookie, owner.endpointId, receiver, owner.publicKey);
        expect(await auditVerifies(second, cookie, work)).toEqual(auditKeysBefore);
        await second.stop();

        // Restored without the key files: no start, the key named, nothing written.
        const keyless = await emptyTarget(kind);
        targets.push(keyless);
        expect((await npmRun("restore", [backupDir], keyless)).code).toBe(0);
        for (const name of readdirSync(keyless.dataDir))
          if (name.endsWith(".key")) rmSync(path.join(keyless.dataDir, name));
        const countsBefore = await rowCounts(keyless);
        const refused = await startServer(serverEnv(keyless), keyless.dataDir).then(
          () => null,
          (error: Error) => error.message,
        );
        expect(refused).toMatch(/exited with 1/);
        expect(refused).toMatch(
          /No encryption key: ENCRYPTION_KEY is not set and \S*totp-encryption\.key does not exist/,
        );
        expect(readdirSync(keyless.dataDir).filter((name) => name.endsWith(".key"))).toEqual([]);
        expect(await rowCounts(keyless)).toEqual(countsBefore);

        // Rotation on the restored installation: re-encrypted under a new key with the old one as previous,
        // then the server runs on the new key alone (the old key file gone).
        const oldKey = readFileSync(path.join(restored.dataDir, "totp-encryption.key"), "utf8").trim();
        const newKey = Buffer.alloc(32, 9).toString("hex");
        const rotated = await npmRun("keys:reencrypt", [], restored, {
          ENCRYPTION_KEY: newKey,
          ENCRYPTION_KEYS_PREVIOUS: oldKey,
        });
        expect(rotated.code, rotated.output).toBe(0);
        expect(rotated.output).toMatch(
          /^Re-encrypted \d+ secrets under key [0-9a-f]{16}; nothing is left under [0-9a-f]{16}\.$/m,
        );
        rmSync(path.join(restored.dataDir, "totp-encryption.key"));
        const third = await startServer(serverEnv(restored, { ENCRYPTION_KEY: newKey }), restored.dataDir);
        servers.push(third);
        const cookieAfterRotation = await signIn(third, authenticator);
        await signedDelivery(third, cookieAfterRotation, owner.endpointId, receiver, owner.publicKey);
        expect(await auditVerifies(third, cookieAfterRotation, work)).toEqual(auditKeysBefore);
        expect(existsSync(path.join(restored.dataDir, "totp-encryption.key"))).toBe(false);
      } finally {
        for (const server of servers) await server.stop();
        await receiver.close();
        for (const target of targets) await target.drop?.();
      }
    });
  });
}
