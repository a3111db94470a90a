import {
  listInformationRequestDocumentsEndpoint,
  uploadInformationRequestDocumentEndpoint,
} from "@/lib/information-requests/evidence-endpoints";
import {
  attachInformationRequestDocument,
  listInformationRequestDocuments,
} from "@/lib/information-requests/documents";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: the request's documents' metadata, oldest first. POST: attach one (multipart/form-data, a `file` part).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listInformationRequestDocumentsEndpoint, ({ params }) =>
    listInformationRequestDocuments({ informationRequestId: params.id }),
  ),
  POST: route(uploadInformationRequestDocumentEndpoint, async ({ actor, params, body, audit }) => {
    const document = await attachInformationRequestDocument({
      informationRequestId: params.id,
      fileName: body.file.name,
      bytes: new Uint8Array(await body.file.arrayBuffer()),
      by: { type: actor.type, id: actor.id },
    });
    // What was stored, never the bytes.
    const { id, fileName, label, contentType, size, sha256 } = document;
    audit.details = { documentId: id, fileName, label, contentType, size, sha256 };
    return document;
  }),
});
