import { getInformationRequestDocumentContentEndpoint } from "@/lib/information-requests/evidence-endpoints";
import { readInformationRequestDocument } from "@/lib/information-requests/documents";
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
      fileName: document.fileName,
    });
  }),
});
