-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "defaultKeyRateLimitPerSeconds" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "defaultKeyRateLimitRequests" INTEGER NOT NULL DEFAULT 100;

-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "rateLimitPerSeconds" INTEGER,
ADD COLUMN     "rateLimitRequests" INTEGER;
