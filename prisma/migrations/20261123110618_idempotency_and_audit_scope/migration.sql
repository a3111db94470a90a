-- AlterTable
ALTER TABLE "AuditEvent" ADD COLUMN "actedForAccountId" TEXT;

-- CreateTable
CREATE TABLE "IdempotencyKey" (
    "credential" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "status" INTEGER,
    "body" TEXT,
    "startedAt" DATETIME NOT NULL,
    "expiresAt" DATETIME NOT NULL,

    PRIMARY KEY ("credential", "key")
);

-- CreateIndex
CREATE INDEX "IdempotencyKey_expiresAt_idx" ON "IdempotencyKey"("expiresAt");
