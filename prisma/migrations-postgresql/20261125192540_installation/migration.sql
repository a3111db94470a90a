-- CreateTable
CREATE TABLE "Installation" (
    "id" TEXT NOT NULL,
    "setUpAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Installation_pkey" PRIMARY KEY ("id")
);

-- An installation set up before this migration: its row, so setup stays closed by the key too.
INSERT INTO "Installation" ("id", "setUpAt") SELECT 'installation', MIN("createdAt") FROM "Employee" HAVING COUNT(*) > 0;
