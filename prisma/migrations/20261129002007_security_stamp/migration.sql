-- Credential links (invitations, password resets) move to a table of their own, each carrying the
-- security stamp of its employee when it was issued. Links pending at this upgrade are not carried
-- over: one issued before a role change could otherwise still be accepted. Issue them again.
-- CreateTable
CREATE TABLE "CredentialLink" (
    "tokenHash" TEXT NOT NULL PRIMARY KEY,
    "employeeId" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "securityStamp" INTEGER NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "CredentialLink_employeeId_fkey" FOREIGN KEY ("employeeId") REFERENCES "Employee" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Columns dropped in place, not by rebuilding the table as Prisma's diff would: migrations run in a
-- transaction, where PRAGMA foreign_keys=OFF does nothing, so dropping the old "Employee" would cascade
-- to its sessions, recovery codes and passkeys.
DROP INDEX "Employee_invitationTokenHash_key";
DROP INDEX "Employee_passwordResetTokenHash_key";
ALTER TABLE "Employee" DROP COLUMN "invitationTokenHash";
ALTER TABLE "Employee" DROP COLUMN "invitationExpiresAt";
ALTER TABLE "Employee" DROP COLUMN "passwordResetTokenHash";
ALTER TABLE "Employee" DROP COLUMN "passwordResetExpiresAt";
ALTER TABLE "Employee" ADD COLUMN "securityStamp" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE UNIQUE INDEX "CredentialLink_employeeId_purpose_key" ON "CredentialLink"("employeeId", "purpose");

-- Every change of an employee's role, status, e-mail or password moves their security stamp, whoever
-- makes it (the service, a script, an operator's SQL): every credential link issued before it stops
-- working. A later migration that rebuilds "Employee" drops this trigger with the table and must
-- create it again (lib/employees/security-stamp.test.ts fails otherwise).
CREATE TRIGGER "Employee_security_stamp" AFTER UPDATE OF "role", "status", "email", "passwordHash" ON "Employee"
FOR EACH ROW WHEN OLD."role" IS NOT NEW."role" OR OLD."status" IS NOT NEW."status" OR OLD."email" IS NOT NEW."email"
  OR OLD."passwordHash" IS NOT NEW."passwordHash"
BEGIN
  UPDATE "Employee" SET "securityStamp" = "securityStamp" + 1 WHERE "id" = NEW."id";
END;
