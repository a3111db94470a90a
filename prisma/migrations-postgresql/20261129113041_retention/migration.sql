-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "retentionRecordsYears" INTEGER NOT NULL DEFAULT 5,
ADD COLUMN     "retentionSessionDays" INTEGER NOT NULL DEFAULT 30,
ADD COLUMN     "retentionWebhookPayloadDays" INTEGER NOT NULL DEFAULT 30;

-- AlterTable
ALTER TABLE "WebhookDelivery" ALTER COLUMN "eventData" DROP NOT NULL;
