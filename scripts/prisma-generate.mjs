// Runs `prisma generate`. Prisma's CLI tries to download its native schema engine before any
// command, and that download is unreachable on some machines; generation itself never uses that
// engine, so pointing PRISMA_SCHEMA_ENGINE_BINARY at any existing file lets it run offline.
import { spawnSync } from "node:child_process";

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1" };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;

const result = spawnSync("npx", ["--no-install", "prisma", "generate"], { stdio: "inherit", env });
process.exit(result.status ?? 1);
