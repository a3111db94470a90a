-- The retention settings, on the platform's account.
ALTER TABLE "Account" ADD COLUMN "retentionWebhookPayloadDays" INTEGER NOT NULL DEFAULT 30;
ALTER TABLE "Account" ADD COLUMN "retentionSessionDays" INTEGER NOT NULL DEFAULT 30;
ALTER TABLE "Account" ADD COLUMN "retentionRecordsYears" INTEGER NOT NULL DEFAULT 5;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_WebhookDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "webhookEndpointId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "eventData" JSONB,
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
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
