-- AlterTable
ALTER TABLE "Employee" ADD COLUMN     "passwordResetExpiresAt" TIMESTAMP(3),
ADD COLUMN     "passwordResetTokenHash" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Employee_passwordResetTokenHash_key" ON "Employee"("passwordResetTokenHash");
