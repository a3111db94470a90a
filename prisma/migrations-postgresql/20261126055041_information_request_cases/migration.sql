-- CreateEnum
CREATE TYPE "InformationRequestPriority" AS ENUM ('low', 'normal', 'high', 'urgent');

-- CreateEnum
CREATE TYPE "InformationRequestReasonCode" AS ENUM ('insufficient_documents', 'source_of_funds_unverified', 'identity_mismatch', 'sanctions_match', 'adverse_media', 'no_response', 'other');

-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "slaHoursDueDiligence" INTEGER,
ADD COLUMN     "slaHoursEndorsement" INTEGER;

-- AlterTable
ALTER TABLE "InformationRequest" ADD COLUMN     "assigneeId" TEXT,
ADD COLUMN     "decisionReasonCode" "InformationRequestReasonCode",
ADD COLUMN     "dueAt" TIMESTAMP(3),
ADD COLUMN     "priority" "InformationRequestPriority" NOT NULL DEFAULT 'normal',
ADD COLUMN     "slaBreachedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "InformationRequestEvent" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "informationRequestId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "actorType" TEXT NOT NULL,
    "actorId" TEXT,
    "data" JSONB NOT NULL DEFAULT '{}',
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "InformationRequestEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "InformationRequestNote" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "informationRequestId" TEXT NOT NULL,
    "authorId" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "InformationRequestNote_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "InformationRequestDocument" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "informationRequestId" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "uploadedById" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "InformationRequestDocument_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WorkerLease" (
    "name" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "leaseUntil" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WorkerLease_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "InformationRequestEvent_informationRequestId_at_id_idx" ON "InformationRequestEvent"("informationRequestId", "at", "id");

-- CreateIndex
CREATE INDEX "InformationRequestNote_informationRequestId_createdAt_id_idx" ON "InformationRequestNote"("informationRequestId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "InformationRequestDocument_informationRequestId_createdAt_i_idx" ON "InformationRequestDocument"("informationRequestId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "InformationRequest_accountId_assigneeId_createdAt_id_idx" ON "InformationRequest"("accountId", "assigneeId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "InformationRequest_accountId_status_dueAt_id_idx" ON "InformationRequest"("accountId", "status", "dueAt", "id");

-- CreateIndex
CREATE INDEX "InformationRequest_accountId_assigneeId_status_dueAt_id_idx" ON "InformationRequest"("accountId", "assigneeId", "status", "dueAt", "id");

-- CreateIndex
CREATE INDEX "InformationRequest_slaBreachedAt_status_dueAt_idx" ON "InformationRequest"("slaBreachedAt", "status", "dueAt");

-- A request's timeline, notes and documents are evidence: never edited or deleted.
CREATE FUNCTION "InformationRequest_evidence_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'information request timeline entries, notes and documents are append-only';
END;
$$;
CREATE TRIGGER "InformationRequestEvent_no_update" BEFORE UPDATE ON "InformationRequestEvent" FOR EACH ROW EXECUTE FUNCTION "InformationRequest_evidence_append_only"();
CREATE TRIGGER "InformationRequestEvent_no_delete" BEFORE DELETE ON "InformationRequestEvent" FOR EACH ROW EXECUTE FUNCTION "InformationRequest_evidence_append_only"();
CREATE TRIGGER "InformationRequestNote_no_update" BEFORE UPDATE ON "InformationRequestNote" FOR EACH ROW EXECUTE FUNCTION "InformationRequest_evidence_append_only"();
CREATE TRIGGER "InformationRequestNote_no_delete" BEFORE DELETE ON "InformationRequestNote" FOR EACH ROW EXECUTE FUNCTION "InformationRequest_evidence_append_only"();
CREATE TRIGGER "InformationRequestDocument_no_update" BEFORE UPDATE ON "InformationRequestDocument" FOR EACH ROW EXECUTE FUNCTION "InformationRequest_evidence_append_only"();
CREATE TRIGGER "InformationRequestDocument_no_delete" BEFORE DELETE ON "InformationRequestDocument" FOR EACH ROW EXECUTE FUNCTION "InformationRequest_evidence_append_only"();
