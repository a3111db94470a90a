-- Enumerated columns become Prisma enums (TEXT on SQLite, as before: no change to the data) and JSON
-- text columns become Json (JSONB, SQLite's declared type for it; the JSON text is kept as it is).
-- Prisma's SQL for the Json defaults (DEFAULT {}, DEFAULT []) is not valid SQLite: quoted here, as it means them.
-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Account" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "platformId" TEXT NOT NULL,
    "parentId" TEXT,
    "name" TEXT NOT NULL,
    "featureFlags" JSONB NOT NULL DEFAULT '{}',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "requireTwoFactor" BOOLEAN NOT NULL DEFAULT false,
    "fourEyesApproval" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "Account_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Account" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Account" ("createdAt", "featureFlags", "fourEyesApproval", "id", "name", "parentId", "platformId", "requireTwoFactor") SELECT "createdAt", "featureFlags", "fourEyesApproval", "id", "name", "parentId", "platformId", "requireTwoFactor" FROM "Account";
DROP TABLE "Account";
ALTER TABLE "new_Account" RENAME TO "Account";
CREATE INDEX "Account_platformId_createdAt_id_idx" ON "Account"("platformId", "createdAt", "id");
CREATE INDEX "Account_parentId_idx" ON "Account"("parentId");
CREATE TABLE "new_ApiKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "name" TEXT,
    "prefix" TEXT NOT NULL,
    "secretHash" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "cidrAllowlist" JSONB NOT NULL DEFAULT '[]',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" DATETIME,
    "revokedAt" DATETIME,
    "permissions" JSONB NOT NULL DEFAULT '[]',
    "createdByType" TEXT,
    "createdById" TEXT,
    CONSTRAINT "ApiKey_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_ApiKey" ("accountId", "cidrAllowlist", "createdAt", "createdById", "createdByType", "expiresAt", "id", "lastUsedAt", "name", "permissions", "prefix", "revokedAt", "secretHash") SELECT "accountId", "cidrAllowlist", "createdAt", "createdById", "createdByType", "expiresAt", "id", "lastUsedAt", "name", "permissions", "prefix", "revokedAt", "secretHash" FROM "ApiKey";
DROP TABLE "ApiKey";
ALTER TABLE "new_ApiKey" RENAME TO "ApiKey";
CREATE UNIQUE INDEX "ApiKey_secretHash_key" ON "ApiKey"("secretHash");
CREATE INDEX "ApiKey_accountId_createdAt_id_idx" ON "ApiKey"("accountId", "createdAt", "id");
CREATE TABLE "new_ApplicantProfile" (
    "accountId" TEXT NOT NULL PRIMARY KEY,
    "firstName" TEXT,
    "lastName" TEXT,
    "dateOfBirth" TEXT,
    "nationality" TEXT,
    "email" TEXT,
    "phone" TEXT,
    "address" JSONB,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_ApplicantProfile" ("accountId", "address", "dateOfBirth", "email", "firstName", "lastName", "nationality", "phone", "updatedAt") SELECT "accountId", "address", "dateOfBirth", "email", "firstName", "lastName", "nationality", "phone", "updatedAt" FROM "ApplicantProfile";
DROP TABLE "ApplicantProfile";
ALTER TABLE "new_ApplicantProfile" RENAME TO "ApplicantProfile";
CREATE TABLE "new_AuditEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "platformId" TEXT,
    "accountId" TEXT,
    "actedForAccountId" TEXT,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorType" TEXT NOT NULL,
    "actorId" TEXT,
    "action" TEXT NOT NULL,
    "targetId" TEXT,
    "ip" TEXT,
    "outcome" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "requestId" TEXT NOT NULL,
    "details" JSONB
);
INSERT INTO "new_AuditEvent" ("accountId", "actedForAccountId", "action", "actorId", "actorType", "at", "details", "id", "ip", "outcome", "platformId", "requestId", "status", "targetId") SELECT "accountId", "actedForAccountId", "action", "actorId", "actorType", "at", "details", "id", "ip", "outcome", "platformId", "requestId", "status", "targetId" FROM "AuditEvent";
DROP TABLE "AuditEvent";
ALTER TABLE "new_AuditEvent" RENAME TO "AuditEvent";
CREATE INDEX "AuditEvent_platformId_at_id_idx" ON "AuditEvent"("platformId", "at", "id");
CREATE INDEX "AuditEvent_platformId_action_at_id_idx" ON "AuditEvent"("platformId", "action", "at", "id");
CREATE INDEX "AuditEvent_platformId_actorId_at_id_idx" ON "AuditEvent"("platformId", "actorId", "at", "id");
-- The redefined table lost the append-only triggers of 20261122140517_resources_and_audit: the same again.
CREATE TRIGGER "AuditEvent_no_update" BEFORE UPDATE ON "AuditEvent"
BEGIN SELECT RAISE(ABORT, 'audit events are append-only'); END;
CREATE TRIGGER "AuditEvent_no_delete" BEFORE DELETE ON "AuditEvent"
BEGIN SELECT RAISE(ABORT, 'audit events are append-only'); END;
CREATE TABLE "new_Beneficiary" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "submissionId" TEXT NOT NULL,
    "name" TEXT,
    "type" TEXT NOT NULL,
    "country" TEXT NOT NULL,
    "roles" JSONB NOT NULL,
    "shareSize" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Beneficiary_submissionId_fkey" FOREIGN KEY ("submissionId") REFERENCES "KycSubmission" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Beneficiary" ("accountId", "country", "createdAt", "id", "name", "roles", "shareSize", "submissionId", "type") SELECT "accountId", "country", "createdAt", "id", "name", "roles", "shareSize", "submissionId", "type" FROM "Beneficiary";
DROP TABLE "Beneficiary";
ALTER TABLE "new_Beneficiary" RENAME TO "Beneficiary";
CREATE INDEX "Beneficiary_accountId_submissionId_idx" ON "Beneficiary"("accountId", "submissionId");
CREATE TABLE "new_WebhookDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "webhookEndpointId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "eventData" JSONB NOT NULL,
    "occurredAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "responseStatusCode" INTEGER,
    "responseBody" TEXT,
    "lastError" TEXT,
    "lastAttemptAt" DATETIME,
    "nextAttemptAt" DATETIME,
    "leaseUntil" DATETIME,
    "leaseOwner" TEXT,
    CONSTRAINT "WebhookDelivery_webhookEndpointId_fkey" FOREIGN KEY ("webhookEndpointId") REFERENCES "WebhookEndpoint" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_WebhookDelivery" ("accountId", "attempts", "eventData", "eventType", "id", "lastAttemptAt", "lastError", "leaseOwner", "leaseUntil", "nextAttemptAt", "occurredAt", "responseBody", "responseStatusCode", "status", "webhookEndpointId") SELECT "accountId", "attempts", "eventData", "eventType", "id", "lastAttemptAt", "lastError", "leaseOwner", "leaseUntil", "nextAttemptAt", "occurredAt", "responseBody", "responseStatusCode", "status", "webhookEndpointId" FROM "WebhookDelivery";
DROP TABLE "WebhookDelivery";
ALTER TABLE "new_WebhookDelivery" RENAME TO "WebhookDelivery";
CREATE INDEX "WebhookDelivery_webhookEndpointId_occurredAt_id_idx" ON "WebhookDelivery"("webhookEndpointId", "occurredAt", "id");
CREATE INDEX "WebhookDelivery_status_nextAttemptAt_idx" ON "WebhookDelivery"("status", "nextAttemptAt");
CREATE TABLE "new_WebhookEndpoint" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "subscribedEvents" JSONB NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "publicKey" TEXT NOT NULL,
    "privateKey" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "disabledAt" DATETIME,
    "deletedAt" DATETIME,
    CONSTRAINT "WebhookEndpoint_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_WebhookEndpoint" ("accountId", "createdAt", "deletedAt", "description", "disabledAt", "enabled", "id", "privateKey", "publicKey", "subscribedEvents", "url") SELECT "accountId", "createdAt", "deletedAt", "description", "disabledAt", "enabled", "id", "privateKey", "publicKey", "subscribedEvents", "url" FROM "WebhookEndpoint";
DROP TABLE "WebhookEndpoint";
ALTER TABLE "new_WebhookEndpoint" RENAME TO "WebhookEndpoint";
CREATE INDEX "WebhookEndpoint_accountId_createdAt_id_idx" ON "WebhookEndpoint"("accountId", "createdAt", "id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
