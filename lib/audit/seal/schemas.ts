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
