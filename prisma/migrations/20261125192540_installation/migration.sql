-- CreateTable
CREATE TABLE "Installation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "setUpAt" DATETIME NOT NULL
);

-- An installation set up before this migration: its row, so setup stays closed by the key too.
INSERT INTO "Installation" ("id", "setUpAt") SELECT 'installation', MIN("createdAt") FROM "Employee" HAVING COUNT(*) > 0;
