import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { describe, expect, it } from "vitest";
import { presentAuditEvent } from "@/lib/audit/schemas";
import type { AuditExportLine } from "@/lib/audit/seal/format";
import { signingKeyId } from "@/lib/audit/seal/key-id";
import { checkpointJson, sealBatch } from "@/lib/audit/seal/sealer";
import type { AuditSigningKey } from "@/lib/audit/seal/signing-key";
import { describeVerdict, verifyAuditExport } from "@/lib/audit/seal/verify";
import { writeAuditEvent } from "@/lib/audit/trail";
import { db } from "@/lib/db";
import { jsonObject } from "@/lib/db/json";
import { databaseProvider } from "@/lib/env";
import { newId } from "@/lib/ids/generate";
import { lastAuditEvent } from "@/lib/testing/audit";
import { apiKeyFor, nextMillisecond, platformWithKey } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { GET } from "./route";

// GET /v1/exports/audit_events?format=ndjson, and the verifier over what it answers after the
// database itself was tampered with (its triggers dropped for the purpose, as an operator could).

function testKey(): AuditSigningKey & { publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const publicKeyPem = publicKey.export({ type: "spki", format: "pem" }).toString();
  return { id: signingKeyId(publicKey), privateKey, publicKeyPem, publicKey };
}

const key = testKey();
const PATH = "/v1/exports/audit_events?format=ndjson";

/** A platform with `count` events of its own, sealed in checkpoints of 3 (with whatever its creation recorded). */
async function sealedPlatform(count = 8) {
  const platform = await platformWithKey();
  for (let i = 0; i < count; i++) {
    await writeAuditEvent({
      actor: null,
      platformId: platform.account.id,
      action: "test.ndjson",
      targetId: null,
      ip: "192.0.2.1",
      status: 200,
      requestId: `req_ndjson_${i}`,
      details: { n: i, note: "é ✓" },
    });
    await nextMillisecond();
  }
  await sealAll(platform.account.id);
  const checkpoints = await db().auditCheckpoint.findMany({
    where: { platformId: platform.account.id },
    orderBy: { seq: "asc" },
  });
  return { ...platform, checkpoints };
}

async function sealAll(platformId: string) {
  while (await sealBatch(platformId, key, { now: () => new Date(), batchSize: 3 }));
}

/** The events a checkpoint sealed, in (at, id) order. */
const sealedBy = (checkpointId: string) =>
  db().auditEvent.findMany({ where: { checkpointId }, orderBy: [{ at: "asc" }, { id: "asc" }] });

async function exportText(apiKey: string) {
  const response = await call<string>(GET, { apiKey, path: PATH });
  expect(response.status).toBe(200);
  return response.body;
}

async function* linesOf(text: string) {
  yield* text.split("\n");
}

/** The verifier's one line over the platform's export, given the sealing key (and checkpoints kept). */
async function verdict(apiKey: string, kept: ReturnType<typeof checkpointJson>[] = []) {
  return describeVerdict(
    await verifyAuditExport(linesOf(await exportText(apiKey)), { publicKeys: [key.publicKey], kept }),
  );
}

/**
 * Runs `tamper` with the audit tables' guards off, as someone with the database's own rights could:
 * on SQLite the triggers dropped (and made again from their own SQL), on PostgreSQL disabled.
 */
async function withoutGuards(tamper: () => Promise<unknown>) {
  if (databaseProvider() === "postgresql") {
    const tables = [`"AuditEvent"`, `"AuditCheckpoint"`];
    for (const table of tables) await db().$executeRawUnsafe(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
    try {
      await tamper();
    } finally {
      for (const table of tables) await db().$executeRawUnsafe(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
    }
    return;
  }
  const triggers = await db().$queryRawUnsafe<{ name: string; sql: string }[]>(
    `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ('AuditEvent', 'AuditCheckpoint')`,
  );
  expect(triggers.length).toBeGreaterThanOrEqual(4);
  for (const { name } of triggers) await db().$executeRawUnsafe(`DROP TRIGGER "${name}"`);
  try {
    await tamper();
  } finally {
    for (const { sql } of triggers) await db().$executeRawUnsafe(sql);
  }
}

describe("GET /v1/exports/audit_events?format=ndjson", () => {
  it("200: the header, each checkpoint after its events in (at, id) order, then the pending events; it verifies", async () => {
    const { apiKey, account, checkpoints } = await sealedPlatform();
    await writeAuditEvent({
      actor: null,
      platformId: account.id,
      action: "test.pending",
      targetId: null,
      ip: null,
      status: 200,
      requestId: "req_p",
    });
    // Read before the export, which records itself after its last line.
    const pending = await db().auditEvent.findMany({
      where: { platformId: account.id, checkpointId: null },
      orderBy: [{ at: "asc" }, { id: "asc" }],
    });
    const response = await call<string>(GET, { apiKey, path: PATH });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/x-ndjson");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="audit-events-${new Date().toISOString().slice(0, 10)}.ndjson"`,
    );
    const lines = response.body
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as AuditExportLine);
    expect(lines[0]).toEqual({
      type: "export",
      format: "audit-ndjson/1",
      platformId: account.id,
      exportedAt: expect.any(String),
    });

    const expected: unknown[] = [];
    for (const checkpoint of checkpoints) {
      for (const row of await sealedBy(checkpoint.id)) expected.push({ type: "event", event: presentAuditEvent(row) });
      const leaves = Buffer.from(checkpoint.leafHashes).toString("hex").match(/.{64}/g);
      expected.push({ type: "checkpoint", checkpoint: checkpointJson(checkpoint), leaves });
    }
    expected.push(...pending.map((row) => ({ type: "event", event: presentAuditEvent(row) })));
    expect(lines.slice(1)).toEqual(expected);
    expect(pending.map((row) => row.action)).toEqual(["test.pending"]);

    const last = checkpointJson(checkpoints.at(-1)!);
    const sealed = checkpoints.reduce((sum, checkpoint) => sum + checkpoint.count, 0);
    expect(describeVerdict(await verifyAuditExport(linesOf(response.body), { publicKeys: [key.publicKey] }))).toBe(
      `Intact: ${sealed} events in ${checkpoints.length} checkpoints, up to checkpoint ${last.seq} sealed at ${last.sealedAt}; 1 event pending (not yet sealed).`,
    );
  });

  it("is audited like the CSV export, with its row count (every event line)", async () => {
    const { apiKey, key: apiKeyRow } = await sealedPlatform(2);
    const text = await exportText(apiKey);
    const events = text.split("\n").filter((line) => line.startsWith('{"type":"event"')).length;
    const audit = await lastAuditEvent({ action: "export.created", actorId: apiKeyRow.id });
    expect(audit).toMatchObject({ outcome: "success", status: 200 });
    expect(jsonObject(audit.details)).toEqual({
      resource: "audit_events",
      filters: { format: "ndjson" },
      rowCount: events,
    });
  });

  it("422: the list's filters with format=ndjson (the NDJSON export is the whole trail); an unknown format", async () => {
    const { apiKey } = await platformWithKey();
    const refused = await call(GET, {
      apiKey,
      path: `${PATH}&action=x&actorId=y&startDate=2026-01-01&endDate=2026-12-31`,
    });
    expectError(refused, 422, "err_validation");
    const details = (refused.body as { details: Record<string, string> }).details;
    expect(Object.keys(details).sort()).toEqual(["action", "actorId", "endDate", "startDate"]);
    expect(details.action).toMatch(/format=ndjson/);
    expectError(await call(GET, { apiKey, path: "/v1/exports/audit_events?format=xml" }), 422, "err_validation");
    // CSV stays the default, with its filters.
    expect(
      (await call<string>(GET, { apiKey, path: "/v1/exports/audit_events?action=x" })).headers.get("content-type"),
    ).toBe("text/csv; charset=utf-8");
  });

  it("403 without audit_log:read", async () => {
    const { account } = await platformWithKey();
    const narrow = await apiKeyFor(account.id, { permissions: ["transfers:read"] });
    expectError(await call(GET, { apiKey: narrow.secret, path: PATH }), 403, "err_forbidden");
  });
});

describe("the verifier names what was done to the database behind the service's back", () => {
  it("an event's field edited", async () => {
    const { apiKey, checkpoints } = await sealedPlatform();
    const [, target] = await sealedBy(checkpoints[1]!.id);
    await withoutGuards(() =>
      db().auditEvent.update({ where: { id: target!.id }, data: { action: "nothing.to.see" } }),
    );
    expect(await verdict(apiKey)).toBe(
      `Not intact: event ${target!.id} was changed: its content matches none of the events checkpoint 2 sealed`,
    );
  });

  it("an event deleted, named by its neighbours", async () => {
    const { apiKey, checkpoints } = await sealedPlatform();
    const [before, target, after] = await sealedBy(checkpoints[1]!.id);
    await withoutGuards(() => db().auditEvent.delete({ where: { id: target!.id } }));
    expect(await verdict(apiKey)).toBe(
      `Not intact: an event was removed from checkpoint 2: the one sealed at position 2 of 3 (after event ${before!.id}, before event ${after!.id})`,
    );
  });

  it("an event inserted claiming a checkpoint", async () => {
    const { apiKey, account, checkpoints } = await sealedPlatform();
    const [first, second] = await sealedBy(checkpoints[1]!.id);
    const id = newId("aud");
    await db().auditEvent.create({
      data: {
        ...first!,
        id,
        at: new Date((first!.at.getTime() + second!.at.getTime()) / 2),
        details: { forged: true },
        platformId: account.id,
        checkpointId: checkpoints[1]!.id,
      },
    });
    expect(await verdict(apiKey)).toBe(
      `Not intact: event ${id} was inserted into checkpoint 2: its content matches none of the events it sealed`,
    );
  });

  it("an event moved (its time changed so it sorts later)", async () => {
    const { apiKey, checkpoints } = await sealedPlatform();
    const [target, , last] = await sealedBy(checkpoints[1]!.id);
    await withoutGuards(() =>
      db().auditEvent.update({ where: { id: target!.id }, data: { at: new Date(last!.at.getTime() + 1) } }),
    );
    expect(await verdict(apiKey)).toBe(
      `Not intact: event ${target!.id} was changed and moved: checkpoint 2 sealed an event at position 1 of 3 that is missing, and this one, at position 3, matches none it sealed`,
    );
  });

  it("a checkpoint edited, a checkpoint deleted, the last checkpoint deleted", async () => {
    const edited = await sealedPlatform();
    await withoutGuards(() =>
      db().auditCheckpoint.update({ where: { id: edited.checkpoints[1]!.id }, data: { sealedAt: new Date(0) } }),
    );
    expect(await verdict(edited.apiKey)).toBe(
      "Not intact: checkpoint 2 was changed: its hash does not match its content",
    );

    const deleted = await sealedPlatform();
    await withoutGuards(() => db().auditCheckpoint.delete({ where: { id: deleted.checkpoints[1]!.id } }));
    expect(await verdict(deleted.apiKey)).toBe(
      "Not intact: checkpoint 2 was removed: checkpoint 3 follows checkpoint 1",
    );

    // Its events stay, naming a checkpoint the export no longer holds: they are not passed off as pending.
    const last = await sealedPlatform();
    const lastCheckpoint = last.checkpoints.at(-1)!;
    const [orphan] = await sealedBy(lastCheckpoint.id);
    await withoutGuards(() => db().auditCheckpoint.delete({ where: { id: lastCheckpoint.id } }));
    expect(await verdict(last.apiKey)).toBe(
      `Not intact: event ${orphan!.id} was inserted after the last checkpoint (${lastCheckpoint.seq - 1}): it names checkpoint ${lastCheckpoint.id}, which the export does not hold (or that checkpoint was removed)`,
    );
  });

  it("a rewrite re-signed with the service's own key verifies alone, and is caught by a checkpoint kept earlier", async () => {
    const { apiKey, account, checkpoints } = await sealedPlatform();
    const kept = checkpointJson(checkpoints[1]!);
    const [target] = await sealedBy(checkpoints[0]!.id);
    await withoutGuards(async () => {
      await db().auditEvent.update({ where: { id: target!.id }, data: { action: "rewritten" } });
      await db().auditEvent.updateMany({ where: { platformId: account.id }, data: { checkpointId: null } });
      await db().auditCheckpoint.deleteMany({ where: { platformId: account.id } });
      await sealAll(account.id);
    });
    expect(await verdict(apiKey)).toMatch(/^Intact: /);
    expect(await verdict(apiKey, [kept])).toBe(
      "Not intact: checkpoint 2 differs from the one kept: the trail was rewritten after it was kept",
    );
  });
});
