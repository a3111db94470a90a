-- CreateTable
CREATE TABLE "WebhookEndpoint" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "subscribedEvents" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "publicKey" TEXT NOT NULL,
    "privateKey" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "disabledAt" DATETIME,
    "deletedAt" DATETIME,
    CONSTRAINT "WebhookEndpoint_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "webhookEndpointId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "eventData" TEXT NOT NULL,
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

-- CreateTable
CREATE TABLE "ApiKeyExpiryNotice" (
    "apiKeyId" TEXT NOT NULL,
    "daysLeft" INTEGER NOT NULL,
    "sentAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("apiKeyId", "daysLeft")
);

-- CreateIndex
CREATE INDEX "WebhookEndpoint_accountId_createdAt_id_idx" ON "WebhookEndpoint"("accountId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "WebhookDelivery_webhookEndpointId_occurredAt_id_idx" ON "WebhookDelivery"("webhookEndpointId", "occurredAt", "id");

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_nextAttemptAt_idx" ON "WebhookDelivery"("status", "nextAttemptAt");
