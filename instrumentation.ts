// Runs once when the server starts, before it takes requests: a bad setting or a database that
// cannot be migrated stops the process here with a message, not on some later request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env, EnvError, databaseFile } = await import("@/lib/env");
  try {
    env();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const { migrateDatabase } = await import("@/lib/db/migrate");
  const applied = migrateDatabase(databaseFile());
  if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);
  const { encryptionKey } = await import("@/lib/auth/encryption");
  encryptionKey();
}
