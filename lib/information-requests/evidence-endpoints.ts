import { z } from "zod";
import { endpointGroup } from "@/lib/contract/endpoint";
import {
  createNoteInput,
  DOCUMENT_MAX_BYTES,
  documentContentParams,
  documentContentTypes,
  documentSchema,
  evidenceParams,
  noteSchema,
  uploadDocumentInput,
} from "@/lib/information-requests/evidence-schemas";

const define = endpointGroup({ tag: "Information requests", auth: "any" });

export const listInformationRequestNotesEndpoint = define("GET /v1/information_requests/{id}/notes", {
  summary: "List an information request's notes",
  description: "A plain array, oldest first.",
  permission: "information_requests:read",
  params: evidenceParams,
  response: z.array(noteSchema),
});

export const createInformationRequestNoteEndpoint = define("POST /v1/information_requests/{id}/notes", {
  summary: "Add a note to an information request",
  description:
    "Employees and API keys alike; `authorId` is the employee's or the key's id. Notes are never edited or deleted. " +
    "Adds a `note_added` entry to the request's timeline and emits `information_request.note_added`.",
  permission: "information_requests:write",
  params: evidenceParams,
  body: createNoteInput,
  response: noteSchema,
  status: 201,
  action: "information_request.note.create",
  // The note's length, not its text: the note itself is kept on the request and its timeline.
  auditDetails: (body: z.output<typeof createNoteInput>) => ({ length: body.body.length }),
});

export const listInformationRequestDocumentsEndpoint = define("GET /v1/information_requests/{id}/documents", {
  summary: "List an information request's documents",
  description:
    "A plain array of the documents' metadata, oldest first (the bytes: `GET .../documents/{docId}/content`).",
  permission: "information_requests:read",
  params: evidenceParams,
  response: z.array(documentSchema),
});

export const uploadInformationRequestDocumentEndpoint = define("POST /v1/information_requests/{id}/documents", {
  summary: "Attach a document (evidence) to an information request",
  description:
    "`multipart/form-data` with one `file` part: a PDF, PNG or JPEG, recognised by its content (not by its name or " +
    "declared type: anything else answers 422 naming `file`), at most 10 MiB (more answers 413 " +
    "`err_payload_too_large`, refused from Content-Length before the body is read, or as soon as a chunked body " +
    "passes the limit). A body that is not multipart answers 415. The document is stored once the whole file " +
    "was read and checked, with a `document_added` timeline entry and the `information_request.document_added` " +
    "event; never deleted while the request exists.",
  permission: "information_requests:write",
  params: evidenceParams,
  body: uploadDocumentInput,
  multipart: { maxFileBytes: DOCUMENT_MAX_BYTES },
  response: documentSchema,
  status: 201,
  errors: [413, 415],
  action: "information_request.document.create",
});

export const getInformationRequestDocumentContentEndpoint = define(
  "GET /v1/information_requests/{id}/documents/{docId}/content",
  {
    summary: "Download a document's bytes",
    description:
      "The bytes with the stored Content-Type, `Content-Disposition: attachment` (the file name, RFC 6266), " +
      "`X-Content-Type-Options: nosniff` and a Content-Security-Policy that lets nothing run.",
    permission: "information_requests:read",
    params: documentContentParams,
    produces: documentContentTypes,
  },
);
