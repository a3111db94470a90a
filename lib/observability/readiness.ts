import { auditSigningKey } from "@/lib/audit/seal/signing-key";
import { encryptionKey } from "@/lib/auth/encryption";
import { db } from "@/lib/db";
import { withoutSecrets } from "@/lib/db/reachability";
import { env } from "@/lib/env";

// Whether this instance should be sent requests (GET /readyz): not once it has been told to stop
// (server.mjs sets the flag at the first SIGTERM), and only while its database answers and its keys are
// loaded. Liveness (GET /healthz) asks nothing of the database: a slow database must not get a working
// process restarted.

const DRAINING = Symbol.for("platform-compliance.draining");
/** How long the database has to answer before the instance counts as not ready. */
export const READINESS_DATABASE_TIMEOUT_MS = 1000;

export type Readiness =
  | { status: "ready"; checks: { database: "ok" } }
  | { status: "unavailable"; checks: { database: string } }
  | { status: "draining" };

export const isDraining = () => (globalThis as { [key: symbol]: unknown })[DRAINING] === true;

export async function readiness(): Promise<Readiness> {
  if (isDraining()) return { status: "draining" };
  const database = await databaseCheck();
  if (database !== "ok") return { status: "unavailable", checks: { database } };
  try {
    encryptionKey();
    auditSigningKey();
  } catch {
    return { status: "unavailable", checks: { database: "ok; the encryption or audit signing key is not loaded" } };
  }
  return { status: "ready", checks: { database: "ok" } };
}

/** "ok", or why not: a round trip that failed (its error's first line) or did not answer within the second. */
async function databaseCheck(): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(
      () => resolve(`no answer within ${READINESS_DATABASE_TIMEOUT_MS} ms`),
      READINESS_DATABASE_TIMEOUT_MS,
    );
  });
  const roundTrip = db()
    .$queryRawUnsafe("SELECT 1")
    .then(() => "ok")
    .catch((error: unknown) => `unreachable: ${firstLine(error)}`);
  try {
    return await Promise.race([roundTrip, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** An error's first line, without DATABASE_URL's password should the driver quote it (lib/db/reachability.ts). */
function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split("\n").find((part) => part.trim() !== "") ?? "error";
  return withoutSecrets(line, env().DATABASE_URL).slice(0, 200);
}
