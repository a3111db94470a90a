// Runs `prisma generate` twice from the one schema source, prisma/schema.prisma: the SQLite client
// (lib/generated/prisma) and a PostgreSQL client (lib/generated/prisma-postgresql) from a derived
// schema that differs only in its provider and output (Prisma 7 refuses a client generated for one
// provider with the other's adapter). The derived schema is written to lib/generated/, never committed.
// Prisma's CLI tries to download its native schema engine before any command, and that download is
// unreachable on some machines; generation itself never uses that engine, so pointing
// PRISMA_SCHEMA_ENGINE_BINARY at any existing file lets it run offline.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { postgresqlSchema } from "./lib/postgresql-schema.mjs";

const root = path.resolve(import.meta.dirname, "..");
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1" };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;

const generate = (...args) =>
  spawnSync("npx", ["--no-install", "prisma", "generate", ...args], { stdio: "inherit", env, cwd: root });

let result = generate();
if (result.status === 0) {
  const derived = path.join(root, "lib/generated/schema-postgresql/schema.prisma");
  mkdirSync(path.dirname(derived), { recursive: true });
  writeFileSync(derived, postgresqlSchema());
  result = generate("--schema", derived);
}
process.exit(result.status ?? 1);
