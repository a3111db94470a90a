-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN "rolledToId" TEXT;

-- AlterTable
ALTER TABLE "AuditEvent" ADD COLUMN "clientRequestId" TEXT;

-- AlterTable
ALTER TABLE "WebhookEndpoint" ADD COLUMN "createdById" TEXT;
ALTER TABLE "WebhookEndpoint" ADD COLUMN "createdByType" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_IdempotencyKey" (
    "credential" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "status" INTEGER,
    "body" TEXT,
    "heldSecret" BOOLEAN NOT NULL DEFAULT false,
    "startedAt" DATETIME NOT NULL,
    "expiresAt" DATETIME NOT NULL,

    PRIMARY KEY ("credential", "key")
);
INSERT INTO "new_IdempotencyKey" ("body", "credential", "expiresAt", "fingerprint", "key", "startedAt", "status") SELECT "body", "credential", "expiresAt", "fingerprint", "key", "startedAt", "status" FROM "IdempotencyKey";
DROP TABLE "IdempotencyKey";
ALTER TABLE "new_IdempotencyKey" RENAME TO "IdempotencyKey";
CREATE INDEX "IdempotencyKey_expiresAt_idx" ON "IdempotencyKey"("expiresAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_rolledToId_key" ON "ApiKey"("rolledToId");

-- CreateIndex
CREATE INDEX "ApiKey_createdById_idx" ON "ApiKey"("createdById");

-- CreateIndex
CREATE INDEX "WebhookEndpoint_createdById_idx" ON "WebhookEndpoint"("createdById");
