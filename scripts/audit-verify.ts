// `npm run audit:verify -- <export.ndjson> --public-key <file> [--public-key <file>...] [--from <file>]`:
// verifies an export of GET /v1/exports/audit_events?format=ndjson offline (no database, no server) and
// prints one line: "Intact: ..." (exit 0) or "Not intact: <the first problem>" (exit 1); a usage error
// exits 2. A key file is a PEM public key, or the JSON answer of GET /v1/audit_events/public_key. A
// --from file is a checkpoint kept earlier (from GET /v1/audit_events/checkpoints, an audit.checkpoint
// webhook event, or an export's checkpoint line): the export must hold the same one.
import { createPublicKey, type KeyObject } from "node:crypto";
import { accessSync, constants, createReadStream, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import type { CheckpointJson } from "../lib/audit/seal/format";
import { checkpointOf, describeVerdict, verifyAuditExport } from "../lib/audit/seal/verify";

const USAGE =
  "usage: npm run audit:verify -- <export.ndjson> --public-key <pem or public_key JSON file> [--public-key <file>...] [--from <checkpoint JSON file>]";

class UsageError extends Error {}

function parseCommandLine(argv: string[]) {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { "public-key": { type: "string", multiple: true }, from: { type: "string", multiple: true } },
    });
    if (positionals.length !== 1) throw new UsageError("name one export file");
    if (!values["public-key"]?.length) throw new UsageError("name at least one --public-key");
    return { file: positionals[0]!, keyFiles: values["public-key"], fromFiles: values.from ?? [] };
  } catch (error) {
    throw error instanceof UsageError ? error : new UsageError((error as Error).message);
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** The PEMs a key file holds: its own text, or the `keys[].publicKey` (or `publicKey`) of a public_key answer. */
function pemsOf(text: string): string[] {
  if (!text.trim().startsWith("{")) return text.match(/-----BEGIN [^-]+-----[\s\S]+?-----END [^-]+-----/g) ?? [text];
  const answer = JSON.parse(text) as { keys?: { publicKey?: unknown }[]; publicKey?: unknown };
  const pems = [...(answer.keys ?? []).map((key) => key.publicKey), answer.publicKey];
  return pems.filter((pem): pem is string => typeof pem === "string");
}

function readPublicKeys(file: string): KeyObject[] {
  try {
    const keys = pemsOf(readText(file)).map((pem) => createPublicKey(pem));
    if (keys.length === 0) throw new Error("no key in it");
    return keys;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${file} holds no public key (a PEM, or the JSON of GET /v1/audit_events/public_key)`);
  }
}

/** The checkpoint a --from file holds: itself, an export's checkpoint line, a webhook event's data, or a page's items. */
function readKept(file: string): CheckpointJson[] {
  let value: unknown;
  try {
    value = JSON.parse(readText(file));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${file} is not JSON`);
  }
  const record = (value ?? {}) as { checkpoint?: unknown; data?: unknown; items?: unknown };
  const candidates = Array.isArray(record.items) ? record.items : [record.checkpoint ?? record.data ?? value];
  const checkpoints = candidates.map(checkpointOf);
  if (checkpoints.length === 0 || checkpoints.some((checkpoint) => checkpoint === null))
    throw new UsageError(`${file} holds no audit checkpoint`);
  return checkpoints as CheckpointJson[];
}

/** The export's lines, read as the file streams in (never whole). */
async function* linesOf(file: string): AsyncGenerator<string> {
  const input = createReadStream(file, { encoding: "utf8" });
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    yield* lines;
  } finally {
    lines.close();
    input.destroy();
  }
}

async function main(argv: string[]): Promise<number> {
  const { file, keyFiles, fromFiles } = parseCommandLine(argv);
  const publicKeys = keyFiles.flatMap(readPublicKeys);
  const kept = fromFiles.flatMap(readKept);
  try {
    accessSync(file, constants.R_OK);
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const verdict = await verifyAuditExport(linesOf(file), { publicKeys, kept });
  console.log(describeVerdict(verdict));
  return verdict.intact ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n${USAGE}`);
    process.exitCode = 2;
  },
);
