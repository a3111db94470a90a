-- Roles, key permissions, platform settings and information-request decisions.
-- Written as ALTER TABLE ... ADD COLUMN rather than the table rebuild Prisma generates: rebuilding
-- Employee would cascade-delete its sessions and recovery codes when the old table is dropped.

ALTER TABLE "Account" ADD COLUMN "requireTwoFactor" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Account" ADD COLUMN "fourEyesApproval" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "Employee" ADD COLUMN "role" TEXT NOT NULL DEFAULT 'viewer';
ALTER TABLE "Employee" ADD COLUMN "deactivatedAt" DATETIME;

ALTER TABLE "ApiKey" ADD COLUMN "permissions" TEXT NOT NULL DEFAULT '[]';
ALTER TABLE "ApiKey" ADD COLUMN "createdByType" TEXT;

ALTER TABLE "InformationRequest" ADD COLUMN "reviewerId" TEXT;
ALTER TABLE "InformationRequest" ADD COLUMN "reviewStartedAt" DATETIME;
ALTER TABLE "InformationRequest" ADD COLUMN "decidedById" TEXT;
ALTER TABLE "InformationRequest" ADD COLUMN "decidedAt" DATETIME;
ALTER TABLE "InformationRequest" ADD COLUMN "decisionReason" TEXT;

-- Existing data: the first employee of each platform becomes its owner and the rest admins;
-- existing keys keep working with the default key permissions of lib/auth/permissions.ts.
UPDATE "Employee" SET "role" = 'admin';
UPDATE "Employee" SET "role" = 'owner' WHERE NOT EXISTS (
    SELECT 1 FROM "Employee" AS "earlier"
    WHERE "earlier"."accountId" = "Employee"."accountId"
      AND ("earlier"."createdAt" < "Employee"."createdAt" OR ("earlier"."createdAt" = "Employee"."createdAt" AND "earlier"."id" < "Employee"."id"))
);
UPDATE "ApiKey" SET "permissions" = '["accounts:read","feature_flags:read","feature_flags:write","api_keys:read","api_keys:write","employees:read","delegated_users:read","delegated_users:write","transactions:read","virtual_accounts:read","virtual_accounts:write","recipients:read","recipients:write","transfers:read","information_requests:read","information_requests:write","kyc:read","kyc:write","audit_log:read","webhooks:read","webhooks:write","settings:read","sandbox:write"]', "createdByType" = CASE WHEN "createdById" IS NULL THEN NULL ELSE 'employee' END;
