import { z } from "zod";
import { presenterOf } from "@/lib/contract/present";
import { freeText } from "@/lib/contract/text";
import { idSchema } from "@/lib/ids/schema";
import { typedFileName } from "@/lib/information-requests/document-names";

// Notes and documents (evidence) of an information request (docs/api.md, Information requests as
// cases): both are only ever added, never edited or deleted. Client-safe (zod only).

export const NOTE_MAX_LENGTH = 5000;
/** 10 MiB: the largest document a request takes. */
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
/** What a document may be, recognised by its bytes (never by its name or declared type). */
export const documentContentTypes = ["application/pdf", "image/png", "image/jpeg"] as const;
export type DocumentContentType = (typeof documentContentTypes)[number];

export const evidenceParams = z.object({ id: idSchema("ir") });
export const documentContentParams = z.object({ id: idSchema("ir"), docId: idSchema("doc") });

export const createNoteInput = z
  .object({
    body: freeText()
      .trim()
      .min(1, "must not be empty")
      .max(NOTE_MAX_LENGTH, `must be at most ${NOTE_MAX_LENGTH} characters`)
      .meta({
        description: `The note (1..${NOTE_MAX_LENGTH} characters after trimming; tab and line feed allowed, no other control characters).`,
      }),
  })
  .meta({ id: "CreateInformationRequestNoteInput" });

export const noteSchema = z
  .object({
    id: z.string(),
    authorId: z.string().meta({ description: "The employee or API key that wrote it." }),
    body: z.string(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "InformationRequestNote" });

export const uploadDocumentInput = z
  .object({
    file: z.file().meta({
      description:
        "The document: a PDF, PNG or JPEG (recognised by its content, whatever its name or declared type), at most 10 MiB.",
    }),
  })
  .meta({ id: "UploadInformationRequestDocumentInput" });

export const documentSchema = z
  .object({
    id: z.string(),
    fileName: z.string().meta({
      description:
        "The name it is stored and served under: the uploaded name with the extension of the type its bytes show " +
        "(`statement.png`, whatever the upload was called).",
    }),
    label: z.string().meta({
      description:
        "The name it was uploaded with, without path or control characters: a label, never used to serve it.",
    }),
    contentType: z
      .string()
      .meta({ description: "`application/pdf`, `image/png` or `image/jpeg`, as recognised from the bytes." }),
    size: z.number().int().meta({ description: "In bytes." }),
    sha256: z.string().meta({ description: "SHA-256 of the bytes, lower-case hex." }),
    uploadedById: z.string().meta({ description: "The employee or API key that uploaded it." }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "InformationRequestDocument" });

export const presentNote = presenterOf(noteSchema);
const presentDocumentRow = presenterOf(documentSchema);

type DocumentRow = {
  id: string;
  fileName: string;
  label: string | null;
  contentType: string;
  size: number;
  sha256: string;
  uploadedById: string;
  createdAt: Date;
};

/** A document as the API shows it; a row stored before names were typed gets its typed name here. */
export const presentDocument = (row: DocumentRow) =>
  presentDocumentRow({
    ...row,
    fileName: typedFileName(row.fileName, row.contentType),
    label: row.label ?? row.fileName,
  });

/** The webhook events' data: the note or the document's metadata (never its bytes), and the request it belongs to. */
export const noteEventSchema = noteSchema.extend({ informationRequestId: z.string() });
export const documentEventSchema = documentSchema.extend({ informationRequestId: z.string() });
