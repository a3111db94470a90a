-- AlterTable
ALTER TABLE "Employee" ADD COLUMN "invitationExpiresAt" DATETIME;
ALTER TABLE "Employee" ADD COLUMN "invitationTokenHash" TEXT;

-- CreateTable
CREATE TABLE "DelegatedUser" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "VirtualAccount" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deactivatedAt" DATETIME
);

-- CreateTable
CREATE TABLE "Transaction" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "virtualAccountId" TEXT,
    "walletAddress" TEXT,
    "amount" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Recipient" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "deletedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Transfer" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "recipientId" TEXT NOT NULL,
    "amount" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "KycSubmission" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Beneficiary" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "submissionId" TEXT NOT NULL,
    "name" TEXT,
    "type" TEXT NOT NULL,
    "country" TEXT NOT NULL,
    "roles" TEXT NOT NULL,
    "shareSize" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Beneficiary_submissionId_fkey" FOREIGN KEY ("submissionId") REFERENCES "KycSubmission" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Agreement" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "submissionId" TEXT NOT NULL,
    "documentSetId" TEXT NOT NULL,
    "ipAddress" TEXT,
    "acceptedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Agreement_submissionId_fkey" FOREIGN KEY ("submissionId") REFERENCES "KycSubmission" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ApplicantProfile" (
    "accountId" TEXT NOT NULL PRIMARY KEY,
    "firstName" TEXT,
    "lastName" TEXT,
    "dateOfBirth" TEXT,
    "nationality" TEXT,
    "email" TEXT,
    "phone" TEXT,
    "address" TEXT,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "InformationRequest" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "transferId" TEXT,
    "submissionId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "platformId" TEXT,
    "accountId" TEXT,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorType" TEXT NOT NULL,
    "actorId" TEXT,
    "action" TEXT NOT NULL,
    "targetId" TEXT,
    "ip" TEXT,
    "outcome" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "requestId" TEXT NOT NULL,
    "details" TEXT
);

-- CreateIndex
CREATE INDEX "DelegatedUser_accountId_createdAt_id_idx" ON "DelegatedUser"("accountId", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "DelegatedUser_accountId_externalId_key" ON "DelegatedUser"("accountId", "externalId");

-- CreateIndex
CREATE INDEX "VirtualAccount_accountId_createdAt_id_idx" ON "VirtualAccount"("accountId", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "VirtualAccount_accountId_key_key" ON "VirtualAccount"("accountId", "key");

-- CreateIndex
CREATE INDEX "Transaction_accountId_createdAt_id_idx" ON "Transaction"("accountId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Transaction_accountId_virtualAccountId_createdAt_id_idx" ON "Transaction"("accountId", "virtualAccountId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Transaction_accountId_walletAddress_createdAt_id_idx" ON "Transaction"("accountId", "walletAddress", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Recipient_accountId_createdAt_id_idx" ON "Recipient"("accountId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Transfer_accountId_createdAt_id_idx" ON "Transfer"("accountId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "KycSubmission_accountId_createdAt_id_idx" ON "KycSubmission"("accountId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Beneficiary_accountId_submissionId_idx" ON "Beneficiary"("accountId", "submissionId");

-- CreateIndex
CREATE INDEX "Agreement_accountId_idx" ON "Agreement"("accountId");

-- CreateIndex
CREATE UNIQUE INDEX "Agreement_submissionId_documentSetId_key" ON "Agreement"("submissionId", "documentSetId");

-- CreateIndex
CREATE INDEX "InformationRequest_accountId_createdAt_id_idx" ON "InformationRequest"("accountId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "InformationRequest_accountId_kind_createdAt_id_idx" ON "InformationRequest"("accountId", "kind", "createdAt", "id");

-- CreateIndex
CREATE INDEX "InformationRequest_accountId_transferId_idx" ON "InformationRequest"("accountId", "transferId");

-- CreateIndex
CREATE INDEX "AuditEvent_platformId_at_id_idx" ON "AuditEvent"("platformId", "at", "id");

-- CreateIndex
CREATE INDEX "AuditEvent_platformId_action_at_id_idx" ON "AuditEvent"("platformId", "action", "at", "id");

-- CreateIndex
CREATE INDEX "AuditEvent_platformId_actorId_at_id_idx" ON "AuditEvent"("platformId", "actorId", "at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Employee_invitationTokenHash_key" ON "Employee"("invitationTokenHash");

-- The audit trail is append-only: refuse edits and deletions at the database itself.
CREATE TRIGGER "AuditEvent_no_update" BEFORE UPDATE ON "AuditEvent"
BEGIN SELECT RAISE(ABORT, 'audit events are append-only'); END;
CREATE TRIGGER "AuditEvent_no_delete" BEFORE DELETE ON "AuditEvent"
BEGIN SELECT RAISE(ABORT, 'audit events are append-only'); END;
