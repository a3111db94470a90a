// `npm run keys:reencrypt`: rewrites every secret encrypted at rest under the current key
// (ENCRYPTION_KEY), reading each with the key it names (ENCRYPTION_KEYS_PREVIOUS holds the earlier ones).
// Safe while the service runs: rows go in batches, each replaced only if unchanged since it was read.
// Run it with the same settings as the service, after every instance runs with the new key as
// ENCRYPTION_KEY and the old one in ENCRYPTION_KEYS_PREVIOUS (docs/operations.md, Rotating the
// encryption key). Exit 0 with what it rewrote; 1 with one line when a secret opens with no configured key.
import { reencryptAll } from "../lib/auth/reencrypt";
import { keyRing } from "../lib/auth/encryption";
import { checkKeyCustody } from "../lib/auth/key-custody";
import { disconnectDb } from "../lib/db";
import { migrate } from "../lib/db/migrate";
import { env } from "../lib/env";

async function main() {
  // The schema this version reads, and keys that fit the data, before anything is rewritten.
  await migrate(env().DATABASE_URL);
  await checkKeyCustody();
  const { current, previous } = keyRing();
  const report = await reencryptAll();
  const total = report.reduce((sum, { rewritten }) => sum + rewritten, 0);
  for (const { label, rewritten } of report) console.log(`  ${label}: ${rewritten} rewritten`);
  console.log(
    `Re-encrypted ${total} secret${total === 1 ? "" : "s"} under key ${current.id}` +
      (previous.length ? `; nothing is left under ${previous.map((key) => key.id).join(", ")}` : "") +
      ".",
  );
}

main()
  .then(async () => {
    await disconnectDb();
    process.exit(0);
  })
  .catch((error: unknown) => {
    process.stderr.write(`npm run keys:reencrypt: ${error instanceof Error ? error.message.split("\n")[0] : error}\n`);
    process.exit(1);
  });
