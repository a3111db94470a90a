import { createHash } from "node:crypto";
import { fileTypeFromBuffer } from "file-type";
import { DomainError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids/generate";
import {
  documentContentTypes,
  documentEventSchema,
  presentDocument,
  type DocumentContentType,
} from "@/lib/information-requests/evidence-schemas";
import { findEvidenceRequest } from "@/lib/information-requests/notes";
import { recordTimelineEntry, type TimelineActor } from "@/lib/information-requests/timeline";
import { safeFileName, typedFileName } from "@/lib/information-requests/document-names";
import { scopeAccountId, tenantDb } from "@/lib/tenancy";
import { emitResourceEvent } from "@/lib/webhooks/events";

// Documents (evidence) of an information request: the bytes live in the database, so every instance
// serves every document; never deleted while the request exists. Every function runs inside a tenant
// scope, so another account's request or document is simply not found (404).

/** Every column but the bytes: what lists and events show. */
const METADATA = {
  id: true,
  informationRequestId: true,
  fileName: true,
  label: true,
  contentType: true,
  size: true,
  sha256: true,
  uploadedById: true,
  createdAt: true,
} as const;

/** The request's documents, oldest first, without their bytes. */
export async function listInformationRequestDocuments({ informationRequestId }: { informationRequestId: string }) {
  const id = await findEvidenceRequest(informationRequestId);
  const rows = await tenantDb().informationRequestDocument.findMany({
    where: { informationRequestId: id },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: METADATA,
  });
  return rows.map(presentDocument);
}

/** One document of the request, with its bytes. */
export async function readInformationRequestDocument({
  informationRequestId,
  documentId,
}: {
  informationRequestId: string;
  documentId: string;
}) {
  const id = await findEvidenceRequest(informationRequestId);
  const row = await tenantDb().informationRequestDocument.findFirst({
    where: { id: documentId, informationRequestId: id },
  });
  if (!row) throw notFound("Document");
  return row;
}

/**
 * Attaches a document once its whole content is known: refused (422) unless its bytes are a PDF, PNG
 * or JPEG, whatever its name says. It is stored under a name with the extension of that type; the
 * uploaded name is kept as its label (lib/information-requests/document-names.ts). The row, its timeline entry and its `information_request.document_added`
 * event are written together, in the caller's transaction.
 */
export async function attachInformationRequestDocument({
  informationRequestId,
  fileName,
  bytes,
  by,
}: {
  informationRequestId: string;
  fileName: string;
  bytes: Uint8Array<ArrayBuffer>;
  by: TimelineActor & { id: string };
}) {
  const id = await findEvidenceRequest(informationRequestId);
  const contentType = await recognisedTypeOf(bytes);
  const row = await tenantDb().informationRequestDocument.create({
    data: {
      id: newId("doc"),
      accountId: scopeAccountId(),
      informationRequestId: id,
      fileName: typedFileName(fileName, contentType),
      label: safeFileName(fileName),
      contentType,
      size: bytes.byteLength,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      uploadedById: by.id,
      content: bytes,
    },
    select: METADATA,
  });
  const { fileName: name, size } = row;
  await recordTimelineEntry({
    informationRequestId: id,
    type: "document_added",
    actor: by,
    data: { documentId: row.id, fileName: name, contentType, size },
    at: row.createdAt,
  });
  const document = presentDocument(row);
  await emitResourceEvent("information_request.document_added", documentEventSchema, {
    ...document,
    informationRequestId: id,
  });
  return document;
}

/** The type the bytes show (their signature), if it is one a document may be. */
async function recognisedTypeOf(bytes: Uint8Array): Promise<DocumentContentType> {
  const detected = (await fileTypeFromBuffer(bytes))?.mime;
  const allowed = documentContentTypes.find((type) => type === detected);
  if (!allowed) {
    throw new DomainError("invalid", "The file must be a PDF, PNG or JPEG", {
      file: `must be a PDF, PNG or JPEG, recognised by its content (this one is ${detected ?? "none of them"})`,
    });
  }
  return allowed;
}
