-- AlterTable
ALTER TABLE "AuditEvent" ADD COLUMN     "checkpointId" TEXT;

-- CreateTable
CREATE TABLE "AuditCheckpoint" (
    "id" TEXT NOT NULL,
    "platformId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "fromEventId" TEXT NOT NULL,
    "toEventId" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "eventsRoot" TEXT NOT NULL,
    "previousHash" TEXT,
    "hash" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "sealedAt" TIMESTAMP(3) NOT NULL,
    "leafHashes" BYTEA NOT NULL,

    CONSTRAINT "AuditCheckpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditSigningKey" (
    "id" TEXT NOT NULL,
    "publicKey" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditSigningKey_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "AuditCheckpoint_platformId_seq_key" ON "AuditCheckpoint"("platformId", "seq");

-- CreateIndex
CREATE INDEX "AuditEvent_checkpointId_platformId_at_id_idx" ON "AuditEvent"("checkpointId", "platformId", "at", "id");

-- An audit event may change once: the sealer sets its checkpointId, from null, with every other
-- column as it was. Anything else is refused, as before.
CREATE FUNCTION "AuditEvent_seal_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."checkpointId" IS NULL AND NEW."checkpointId" IS NOT NULL
    AND (NEW."id", NEW."platformId", NEW."accountId", NEW."actedForAccountId", NEW."at", NEW."actorType",
         NEW."actorId", NEW."action", NEW."targetId", NEW."ip", NEW."outcome", NEW."status", NEW."requestId",
         NEW."clientRequestId", NEW."details"::text)
      IS NOT DISTINCT FROM
        (OLD."id", OLD."platformId", OLD."accountId", OLD."actedForAccountId", OLD."at", OLD."actorType",
         OLD."actorId", OLD."action", OLD."targetId", OLD."ip", OLD."outcome", OLD."status", OLD."requestId",
         OLD."clientRequestId", OLD."details"::text)
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit events are append-only';
END;
$$;
DROP TRIGGER "AuditEvent_no_update" ON "AuditEvent";
CREATE TRIGGER "AuditEvent_no_update" BEFORE UPDATE ON "AuditEvent" FOR EACH ROW EXECUTE FUNCTION "AuditEvent_seal_only"();

-- Checkpoints are append-only.
CREATE FUNCTION "AuditCheckpoint_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit checkpoints are append-only';
END;
$$;
CREATE TRIGGER "AuditCheckpoint_no_update" BEFORE UPDATE ON "AuditCheckpoint" FOR EACH ROW EXECUTE FUNCTION "AuditCheckpoint_append_only"();
CREATE TRIGGER "AuditCheckpoint_no_delete" BEFORE DELETE ON "AuditCheckpoint" FOR EACH ROW EXECUTE FUNCTION "AuditCheckpoint_append_only"();
