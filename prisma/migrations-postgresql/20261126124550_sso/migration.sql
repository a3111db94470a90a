-- AlterTable
ALTER TABLE "Session" ADD COLUMN     "viaSso" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "SsoConnection" (
    "platformId" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "clientSecretEncrypted" TEXT NOT NULL,
    "allowedDomains" JSONB NOT NULL,
    "enforced" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SsoConnection_pkey" PRIMARY KEY ("platformId")
);

-- CreateTable
CREATE TABLE "SsoLogin" (
    "stateHash" TEXT NOT NULL,
    "platformId" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "codeVerifier" TEXT NOT NULL,
    "returnTo" TEXT,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SsoLogin_pkey" PRIMARY KEY ("stateHash")
);

-- CreateIndex
CREATE INDEX "SsoLogin_expiresAt_idx" ON "SsoLogin"("expiresAt");
