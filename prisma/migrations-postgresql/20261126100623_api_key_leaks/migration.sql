-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "leakSource" TEXT,
ADD COLUMN     "leakUrl" TEXT,
ADD COLUMN     "leakedAt" TIMESTAMP(3);
