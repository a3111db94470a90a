-- AlterTable
ALTER TABLE "AuditEvent" ADD COLUMN "checkpointId" TEXT;

-- CreateTable
CREATE TABLE "AuditCheckpoint" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "platformId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "fromEventId" TEXT NOT NULL,
    "toEventId" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "eventsRoot" TEXT NOT NULL,
    "previousHash" TEXT,
    "hash" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "sealedAt" DATETIME NOT NULL,
    "leafHashes" BLOB NOT NULL
);

-- CreateTable
CREATE TABLE "AuditSigningKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "publicKey" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE UNIQUE INDEX "AuditCheckpoint_platformId_seq_key" ON "AuditCheckpoint"("platformId", "seq");

-- CreateIndex
CREATE INDEX "AuditEvent_checkpointId_platformId_at_id_idx" ON "AuditEvent"("checkpointId", "platformId", "at", "id");

-- An audit event may change once: the sealer sets its checkpointId, from null, with every other
-- column as it was. Anything else is refused, as before.
DROP TRIGGER "AuditEvent_no_update";
CREATE TRIGGER "AuditEvent_no_update" BEFORE UPDATE ON "AuditEvent"
WHEN OLD."checkpointId" IS NOT NULL OR NEW."checkpointId" IS NULL
  OR NEW."id" IS NOT OLD."id" OR NEW."platformId" IS NOT OLD."platformId"
  OR NEW."accountId" IS NOT OLD."accountId" OR NEW."actedForAccountId" IS NOT OLD."actedForAccountId"
  OR NEW."at" IS NOT OLD."at" OR NEW."actorType" IS NOT OLD."actorType" OR NEW."actorId" IS NOT OLD."actorId"
  OR NEW."action" IS NOT OLD."action" OR NEW."targetId" IS NOT OLD."targetId" OR NEW."ip" IS NOT OLD."ip"
  OR NEW."outcome" IS NOT OLD."outcome" OR NEW."status" IS NOT OLD."status"
  OR NEW."requestId" IS NOT OLD."requestId" OR NEW."clientRequestId" IS NOT OLD."clientRequestId"
  OR NEW."details" IS NOT OLD."details"
BEGIN SELECT RAISE(ABORT, 'audit events are append-only'); END;

-- Checkpoints are append-only.
CREATE TRIGGER "AuditCheckpoint_no_update" BEFORE UPDATE ON "AuditCheckpoint"
BEGIN SELECT RAISE(ABORT, 'audit checkpoints are append-only'); END;
CREATE TRIGGER "AuditCheckpoint_no_delete" BEFORE DELETE ON "AuditCheckpoint"
BEGIN SELECT RAISE(ABORT, 'audit checkpoints are append-only'); END;
