-- AlterTable
ALTER TABLE "InformationRequestDocument" ADD COLUMN     "label" TEXT;
