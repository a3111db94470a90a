-- Enumerated columns become enum types and JSON text columns JSONB. Written by hand from
-- `npm run db:migration`'s output, which dropped and re-added each column (losing its data): here each
-- column is converted in place (ALTER ... TYPE ... USING), its rows, position and indexes kept.

-- CreateEnum
CREATE TYPE "Role" AS ENUM ('owner', 'admin', 'developer', 'compliance', 'viewer');

-- CreateEnum
CREATE TYPE "EmployeeStatus" AS ENUM ('invited', 'active', 'deactivated');

-- CreateEnum
CREATE TYPE "KeyCreatorType" AS ENUM ('employee', 'api_key');

-- CreateEnum
CREATE TYPE "TransactionType" AS ENUM ('pay_in', 'payout', 'transfer', 'fee');

-- CreateEnum
CREATE TYPE "PaymentStatus" AS ENUM ('pending', 'completed', 'failed');

-- CreateEnum
CREATE TYPE "PartyType" AS ENUM ('individual', 'business');

-- CreateEnum
CREATE TYPE "KycSubmissionStatus" AS ENUM ('draft', 'submitted', 'approved', 'rejected');

-- CreateEnum
CREATE TYPE "InformationRequestKind" AS ENUM ('due_diligence', 'endorsement');

-- CreateEnum
CREATE TYPE "InformationRequestStatus" AS ENUM ('requested', 'on_review', 'approved', 'rejected', 'expired');

-- CreateEnum
CREATE TYPE "AuditActorType" AS ENUM ('employee', 'api_key', 'anonymous');

-- CreateEnum
CREATE TYPE "AuditOutcome" AS ENUM ('success', 'failure', 'denied');

-- CreateEnum
CREATE TYPE "WebhookDeliveryStatus" AS ENUM ('pending', 'delivered', 'failed');

-- AlterTable
ALTER TABLE "Account" ALTER COLUMN "featureFlags" DROP DEFAULT,
ALTER COLUMN "featureFlags" TYPE JSONB USING "featureFlags"::JSONB,
ALTER COLUMN "featureFlags" SET DEFAULT '{}';

-- AlterTable
ALTER TABLE "ApiKey" ALTER COLUMN "cidrAllowlist" DROP DEFAULT,
ALTER COLUMN "cidrAllowlist" TYPE JSONB USING "cidrAllowlist"::JSONB,
ALTER COLUMN "cidrAllowlist" SET DEFAULT '[]',
ALTER COLUMN "permissions" DROP DEFAULT,
ALTER COLUMN "permissions" TYPE JSONB USING "permissions"::JSONB,
ALTER COLUMN "permissions" SET DEFAULT '[]',
ALTER COLUMN "createdByType" TYPE "KeyCreatorType" USING "createdByType"::"KeyCreatorType";

-- AlterTable
ALTER TABLE "ApplicantProfile" ALTER COLUMN "address" TYPE JSONB USING "address"::JSONB;

-- AlterTable
ALTER TABLE "AuditEvent" ALTER COLUMN "actorType" TYPE "AuditActorType" USING "actorType"::"AuditActorType",
ALTER COLUMN "outcome" TYPE "AuditOutcome" USING "outcome"::"AuditOutcome",
ALTER COLUMN "details" TYPE JSONB USING "details"::JSONB;

-- AlterTable
ALTER TABLE "Beneficiary" ALTER COLUMN "type" TYPE "PartyType" USING "type"::"PartyType",
ALTER COLUMN "roles" TYPE JSONB USING "roles"::JSONB;

-- AlterTable
ALTER TABLE "Employee" ALTER COLUMN "status" TYPE "EmployeeStatus" USING "status"::"EmployeeStatus",
ALTER COLUMN "role" DROP DEFAULT,
ALTER COLUMN "role" TYPE "Role" USING "role"::"Role",
ALTER COLUMN "role" SET DEFAULT 'viewer';

-- AlterTable
ALTER TABLE "InformationRequest" ALTER COLUMN "kind" TYPE "InformationRequestKind" USING "kind"::"InformationRequestKind",
ALTER COLUMN "status" TYPE "InformationRequestStatus" USING "status"::"InformationRequestStatus";

-- AlterTable
ALTER TABLE "KycSubmission" ALTER COLUMN "type" TYPE "PartyType" USING "type"::"PartyType",
ALTER COLUMN "status" TYPE "KycSubmissionStatus" USING "status"::"KycSubmissionStatus";

-- AlterTable
ALTER TABLE "Transaction" ALTER COLUMN "type" TYPE "TransactionType" USING "type"::"TransactionType",
ALTER COLUMN "status" TYPE "PaymentStatus" USING "status"::"PaymentStatus";

-- AlterTable
ALTER TABLE "Transfer" ALTER COLUMN "status" TYPE "PaymentStatus" USING "status"::"PaymentStatus";

-- AlterTable
ALTER TABLE "WebhookDelivery" ALTER COLUMN "eventData" TYPE JSONB USING "eventData"::JSONB,
ALTER COLUMN "status" DROP DEFAULT,
ALTER COLUMN "status" TYPE "WebhookDeliveryStatus" USING "status"::"WebhookDeliveryStatus",
ALTER COLUMN "status" SET DEFAULT 'pending';

-- AlterTable
ALTER TABLE "WebhookEndpoint" ALTER COLUMN "subscribedEvents" TYPE JSONB USING "subscribedEvents"::JSONB;
