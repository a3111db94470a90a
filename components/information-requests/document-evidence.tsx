"use client";

import { useEffect, useState } from "react";
import { ErrorMessage } from "@/components/ui/data-state";
import { formatBytes } from "@/lib/client/format";
import { downloadDocument, useDocumentBlob } from "./detail-hooks";
import styles from "./case.module.css";

type DocumentFacts = { documentId: string; fileName: string; contentType: string; size: number };

const typeNames: Record<string, string> = {
  "application/pdf": "PDF",
  "image/png": "PNG image",
  "image/jpeg": "JPEG image",
};

/** One attached document: its name, type and size, a preview where it is an image, and a download. */
export function DocumentEvidence({ requestId, document }: { requestId: string; document: DocumentFacts }) {
  const isImage = document.contentType.startsWith("image/");
  const [downloading, setDownloading] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const download = () => {
    setError(null);
    setDownloading(true);
    downloadDocument(requestId, { id: document.documentId, fileName: document.fileName })
      .catch(setError)
      .finally(() => setDownloading(false));
  };
  return (
    <div className={styles.document} data-testid="document">
      {isImage && <ImagePreview requestId={requestId} document={document} />}
      <div className={styles.documentFacts}>
        <span className={styles.fileName}>{document.fileName}</span>
        <span className="muted">
          {typeNames[document.contentType] ?? document.contentType} · {formatBytes(document.size)}
        </span>
        <button type="button" className="link" onClick={download} disabled={downloading}>
          {downloading ? (
            "Downloading…"
          ) : (
            <>
              Download<span className="visually-hidden"> {document.fileName}</span>
            </>
          )}
        </button>
      </div>
      <ErrorMessage error={error} />
    </div>
  );
}

/**
 * The image itself, read with the page's account (an <img> pointing at the API could not send
 * Service-Account-Id) and shown from a blob: address, which the pages' CSP allows.
 */
function ImagePreview({ requestId, document }: { requestId: string; document: DocumentFacts }) {
  const bytes = useDocumentBlob(requestId, document.documentId);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!bytes.data) return;
    const address = URL.createObjectURL(bytes.data);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the address exists only once the effect made it, and goes with it
    setUrl(address);
    return () => URL.revokeObjectURL(address);
  }, [bytes.data]);
  if (bytes.error) return <p className="muted">The preview could not be loaded.</p>;
  if (!url)
    return (
      <p className="muted" role="status">
        Loading preview…
      </p>
    );
  // eslint-disable-next-line @next/next/no-img-element -- a blob: address of a user's document; next/image cannot optimise it
  return <img className={styles.preview} src={url} alt={`Preview of ${document.fileName}`} />;
}
