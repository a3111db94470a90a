-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "lastUsedIp" TEXT,
ADD COLUMN     "lastUsedUserAgent" TEXT;

-- CreateTable
CREATE TABLE "ApiKeyUsageDay" (
    "apiKeyId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "ApiKeyUsageDay_pkey" PRIMARY KEY ("apiKeyId","day","outcome")
);
