import { getInformationRequestDocumentContentEndpoint } from "@/lib/information-requests/evidence-endpoints";
import { readInformationRequestDocument } from "@/lib/information-requests/documents";
import { typedFileName } from "@/lib/information-requests/document-names";
import { attachmentResponse } from "@/lib/http/attachment";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: the document's bytes, as a download of its stored type.
export const { GET, PUT, PATCH, POST, DELETE, OPTIONS } = methods({
  GET: route(getInformationRequestDocumentContentEndpoint, async ({ params }) => {
    const document = await readInformationRequestDocument({
      informationRequestId: params.id,
      documentId: params.docId,
    });
    return attachmentResponse({
      body: document.content,
      contentType: document.contentType,
      // With the extension of its type, whatever name it was stored under before names were typed.
      fileName: typedFileName(document.fileName, document.contentType),
    });
  }),
});
