-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "rolledToId" TEXT;

-- AlterTable
ALTER TABLE "AuditEvent" ADD COLUMN     "clientRequestId" TEXT;

-- AlterTable
ALTER TABLE "IdempotencyKey" ADD COLUMN     "heldSecret" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "WebhookEndpoint" ADD COLUMN     "createdById" TEXT,
ADD COLUMN     "createdByType" "KeyCreatorType";

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_rolledToId_key" ON "ApiKey"("rolledToId");

-- CreateIndex
CREATE INDEX "ApiKey_createdById_idx" ON "ApiKey"("createdById");

-- CreateIndex
CREATE INDEX "WebhookEndpoint_createdById_idx" ON "WebhookEndpoint"("createdById");
