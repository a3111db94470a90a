import { databaseFile, env, EnvError, testRunner } from "@/lib/env";
import { encryptionKey } from "@/lib/auth/encryption";
import { migrateDatabase } from "@/lib/db/migrate";

/**
 * Before the server takes requests: a bad setting stops the process with a message naming the
 * variable, the database is created and migrated, and the encryption key is loaded or generated.
 */
export function startUp() {
  try {
    if (env().PASSWORD_HASH_COST === "test") {
      console.warn(`Passwords are hashed at test cost (PASSWORD_HASH_COST=test, under ${testRunner(process.env)}): never for real use.`);
    }
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const applied = migrateDatabase(databaseFile());
  if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);
  encryptionKey();
}
