-- AlterTable
ALTER TABLE "Employee" ADD COLUMN "passwordResetExpiresAt" DATETIME;
ALTER TABLE "Employee" ADD COLUMN "passwordResetTokenHash" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Employee_passwordResetTokenHash_key" ON "Employee"("passwordResetTokenHash");
