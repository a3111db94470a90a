import { z } from "zod";
import { pageQuerySchema, pageSchemaOf } from "@/lib/contract/pagination";

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);

export const checkpointSchema = z
  .object({
    id: z.string(),
    platformId: z.string(),
    seq: z.number().int().min(1).meta({ description: "1, 2, ... per platform." }),
    fromEventId: z.string().meta({ description: "The first event it seals, in (at, id) order." }),
    toEventId: z.string().meta({ description: "The last event it seals." }),
    count: z.number().int().min(1),
    eventsRoot: hex64.meta({
      description:
        "Hex SHA-256 Merkle root (RFC 6962: leaf 0x00 || data, node 0x01 || left || right) over the events' RFC 8785 canonical JSON without checkpointId.",
    }),
    previousHash: hex64.nullable().meta({ description: "The hash of checkpoint seq - 1; null for the first." }),
    keyId: z.string().meta({ description: "The signing key (GET /v1/audit_events/public_key)." }),
    sealedAt: z.iso.datetime(),
    hash: hex64.meta({ description: "Hex SHA-256 of this checkpoint's canonical JSON without hash and signature." }),
    signature: z.string().meta({ description: "Base64 Ed25519 signature over the 32 bytes of hash." }),
  })
  .meta({ id: "AuditCheckpoint" });

export const checkpointQuery = pageQuerySchema;

export const checkpointPageSchema = pageSchemaOf(checkpointSchema, "AuditCheckpointPage");

const pem = z.string().meta({ description: "SPKI PEM." });

export const signingKeySchema = z
  .object({
    id: z.string().meta({ description: "The key id checkpoints name as keyId." }),
    publicKey: pem,
    createdAt: z.iso
      .datetime()
      .nullable()
      .meta({ description: "When the service first signed with it; null for the current key before its first seal." }),
    firstSeq: z.number().int().nullable().meta({ description: "The first of the platform's checkpoints it signed." }),
    lastSeq: z.number().int().nullable().meta({ description: "The last of the platform's checkpoints it signed." }),
    firstSealedAt: z.iso.datetime().nullable(),
    lastSealedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "AuditSigningKey" });

export const publicKeySchema = z
  .object({
    algorithm: z.literal("Ed25519"),
    keyId: z.string().meta({ description: "The key signing new checkpoints now." }),
    publicKey: pem,
    keys: z.array(signingKeySchema).meta({
      description:
        "Every key that signed one of the platform's checkpoints, by the first seq it signed, and the current key " +
        "(seqs null until it signs one): a rotated-out key stays listed, so the checkpoints it signed still verify.",
    }),
  })
  .meta({ id: "AuditPublicKey" });
