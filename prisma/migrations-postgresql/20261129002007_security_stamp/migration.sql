-- Credential links (invitations, password resets) move to a table of their own, each carrying the
-- security stamp of its employee when it was issued. Links pending at this upgrade are not carried
-- over: one issued before a role change could otherwise still be accepted. Issue them again.
-- CreateEnum
CREATE TYPE "CredentialLinkPurpose" AS ENUM ('invitation', 'password_reset');

-- DropIndex
DROP INDEX "Employee_invitationTokenHash_key";

-- DropIndex
DROP INDEX "Employee_passwordResetTokenHash_key";

-- AlterTable
ALTER TABLE "Employee" DROP COLUMN "invitationExpiresAt",
DROP COLUMN "invitationTokenHash",
DROP COLUMN "passwordResetExpiresAt",
DROP COLUMN "passwordResetTokenHash",
ADD COLUMN     "securityStamp" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "CredentialLink" (
    "tokenHash" TEXT NOT NULL,
    "employeeId" TEXT NOT NULL,
    "purpose" "CredentialLinkPurpose" NOT NULL,
    "securityStamp" INTEGER NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CredentialLink_pkey" PRIMARY KEY ("tokenHash")
);

-- CreateIndex
CREATE UNIQUE INDEX "CredentialLink_employeeId_purpose_key" ON "CredentialLink"("employeeId", "purpose");

-- AddForeignKey
ALTER TABLE "CredentialLink" ADD CONSTRAINT "CredentialLink_employeeId_fkey" FOREIGN KEY ("employeeId") REFERENCES "Employee"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every change of an employee's role, status, e-mail or password moves their security stamp, whoever
-- makes it (the service, a script, an operator's SQL): every credential link issued before it stops
-- working.
CREATE FUNCTION "Employee_move_security_stamp"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."role" IS DISTINCT FROM OLD."role" OR NEW."status" IS DISTINCT FROM OLD."status"
    OR NEW."email" IS DISTINCT FROM OLD."email" OR NEW."passwordHash" IS DISTINCT FROM OLD."passwordHash" THEN
    NEW."securityStamp" := OLD."securityStamp" + 1;
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER "Employee_security_stamp" BEFORE UPDATE ON "Employee" FOR EACH ROW EXECUTE FUNCTION "Employee_move_security_stamp"();
