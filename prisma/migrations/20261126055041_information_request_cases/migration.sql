-- Prisma's SQL for the Json default (DEFAULT {}) is not valid SQLite: quoted here, as it means it.
-- AlterTable
ALTER TABLE "Account" ADD COLUMN "slaHoursDueDiligence" INTEGER;
ALTER TABLE "Account" ADD COLUMN "slaHoursEndorsement" INTEGER;

-- CreateTable
CREATE TABLE "InformationRequestEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "informationRequestId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "actorType" TEXT NOT NULL,
    "actorId" TEXT,
    "data" JSONB NOT NULL DEFAULT '{}',
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "InformationRequestNote" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "informationRequestId" TEXT NOT NULL,
    "authorId" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "InformationRequestDocument" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "informationRequestId" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "uploadedById" TEXT NOT NULL,
    "content" BLOB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "WorkerLease" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "owner" TEXT NOT NULL,
    "leaseUntil" DATETIME NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_InformationRequest" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "transferId" TEXT,
    "submissionId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "reviewerId" TEXT,
    "reviewStartedAt" DATETIME,
    "decidedById" TEXT,
    "decidedAt" DATETIME,
    "decisionReason" TEXT,
    "decisionReasonCode" TEXT,
    "assigneeId" TEXT,
    "priority" TEXT NOT NULL DEFAULT 'normal',
    "dueAt" DATETIME,
    "slaBreachedAt" DATETIME
);
INSERT INTO "new_InformationRequest" ("accountId", "createdAt", "decidedAt", "decidedById", "decisionReason", "id", "kind", "reviewStartedAt", "reviewerId", "status", "submissionId", "transferId", "updatedAt") SELECT "accountId", "createdAt", "decidedAt", "decidedById", "decisionReason", "id", "kind", "reviewStartedAt", "reviewerId", "status", "submissionId", "transferId", "updatedAt" FROM "InformationRequest";
DROP TABLE "InformationRequest";
ALTER TABLE "new_InformationRequest" RENAME TO "InformationRequest";
CREATE INDEX "InformationRequest_accountId_createdAt_id_idx" ON "InformationRequest"("accountId", "createdAt", "id");
CREATE INDEX "InformationRequest_accountId_kind_createdAt_id_idx" ON "InformationRequest"("accountId", "kind", "createdAt", "id");
CREATE INDEX "InformationRequest_accountId_transferId_idx" ON "InformationRequest"("accountId", "transferId");
CREATE INDEX "InformationRequest_accountId_assigneeId_createdAt_id_idx" ON "InformationRequest"("accountId", "assigneeId", "createdAt", "id");
CREATE INDEX "InformationRequest_accountId_status_dueAt_id_idx" ON "InformationRequest"("accountId", "status", "dueAt", "id");
CREATE INDEX "InformationRequest_accountId_assigneeId_status_dueAt_id_idx" ON "InformationRequest"("accountId", "assigneeId", "status", "dueAt", "id");

-- CreateIndex
CREATE INDEX "InformationRequest_slaBreachedAt_status_dueAt_idx" ON "InformationRequest"("slaBreachedAt", "status", "dueAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "InformationRequestEvent_informationRequestId_at_id_idx" ON "InformationRequestEvent"("informationRequestId", "at", "id");

-- CreateIndex
CREATE INDEX "InformationRequestNote_informationRequestId_createdAt_id_idx" ON "InformationRequestNote"("informationRequestId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "InformationRequestDocument_informationRequestId_createdAt_id_idx" ON "InformationRequestDocument"("informationRequestId", "createdAt", "id");

-- A request's timeline, notes and documents are evidence: never edited or deleted.
CREATE TRIGGER "InformationRequestEvent_no_update" BEFORE UPDATE ON "InformationRequestEvent"
BEGIN SELECT RAISE(ABORT, 'information request timeline entries are append-only'); END;
CREATE TRIGGER "InformationRequestEvent_no_delete" BEFORE DELETE ON "InformationRequestEvent"
BEGIN SELECT RAISE(ABORT, 'information request timeline entries are append-only'); END;
CREATE TRIGGER "InformationRequestNote_no_update" BEFORE UPDATE ON "InformationRequestNote"
BEGIN SELECT RAISE(ABORT, 'information request notes are append-only'); END;
CREATE TRIGGER "InformationRequestNote_no_delete" BEFORE DELETE ON "InformationRequestNote"
BEGIN SELECT RAISE(ABORT, 'information request notes are append-only'); END;
CREATE TRIGGER "InformationRequestDocument_no_update" BEFORE UPDATE ON "InformationRequestDocument"
BEGIN SELECT RAISE(ABORT, 'information request documents are append-only'); END;
CREATE TRIGGER "InformationRequestDocument_no_delete" BEFORE DELETE ON "InformationRequestDocument"
BEGIN SELECT RAISE(ABORT, 'information request documents are append-only'); END;
