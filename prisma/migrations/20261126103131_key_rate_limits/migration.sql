-- AlterTable (additive: SQLite adds a NOT NULL column with a constant default in place)
ALTER TABLE "Account" ADD COLUMN "defaultKeyRateLimitRequests" INTEGER NOT NULL DEFAULT 100;
ALTER TABLE "Account" ADD COLUMN "defaultKeyRateLimitPerSeconds" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN "rateLimitPerSeconds" INTEGER;
ALTER TABLE "ApiKey" ADD COLUMN "rateLimitRequests" INTEGER;
