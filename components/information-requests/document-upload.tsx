"use client";

import { useId, useRef, useState, type DragEvent } from "react";
import { ApiRequestError } from "@/lib/client/api";
import { formatBytes } from "@/lib/client/format";
import { DOCUMENT_MAX_BYTES, documentContentTypes } from "@/lib/information-requests/evidence-schemas";
import { useUploadDocument } from "./detail-hooks";
import styles from "./case.module.css";

/** What went wrong, in a sentence: the server's own word on a refused file (413, 422), ours before sending. */
function problemOf(error: unknown): string {
  if (!(error instanceof ApiRequestError))
    return "The upload did not reach the server. Check the connection and try again.";
  if (error.status === 413) return `${error.message}: documents may be at most 10 MB.`;
  // The API's per-field word says why ("must be a PDF, PNG or JPEG, recognised by its content ...").
  if (error.status === 422 && error.details.file) return `The file ${error.details.file}.`;
  return error.message;
}

/**
 * Attaches evidence: drop a file on the zone or choose one with the button (the keyboard's way).
 * PDF, PNG or JPEG up to 10 MB; a larger file is stopped here before it is sent, but the server
 * decides (it recognises the type by the bytes), and its refusal is shown as it words it.
 */
export function DocumentUpload({ requestId }: { requestId: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const { pending, problem, done, send } = useDocumentUpload(requestId);
  const [dragging, setDragging] = useState(false);

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!pending) send(event.dataTransfer.files[0]);
  };
  return (
    <div className="stack">
      <div
        className={`${styles.dropZone} ${dragging ? styles.dragging : ""}`}
        data-testid="drop-zone"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
        aria-busy={pending || undefined}
      >
        <p style={{ margin: 0 }}>{pending ? "Uploading…" : "Drop a file here, or"}</p>
        <button
          type="button"
          onClick={() => input.current?.click()}
          disabled={pending}
          aria-describedby={`${id}-types`}
        >
          Attach file
        </button>
        <span id={`${id}-types`} className="muted">
          PDF, PNG or JPEG, at most 10 MB.
        </span>
        <input
          ref={input}
          type="file"
          accept={documentContentTypes.join(",")}
          hidden
          aria-label="Attach file"
          onChange={(event) => {
            send(event.target.files?.[0]);
            event.target.value = "";
          }}
        />
      </div>
      <UploadResult problem={problem} done={done} />
    </div>
  );
}

/** Sends one file, or says why it was not taken; a file over the limit is not sent at all. */
function useDocumentUpload(requestId: string) {
  const upload = useUploadDocument(requestId);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const send = (file: File | undefined) => {
    if (!file) return;
    setDone(null);
    if (file.size > DOCUMENT_MAX_BYTES)
      return setProblem(`${file.name} is ${formatBytes(file.size)}: documents may be at most 10 MB.`);
    setProblem(null);
    upload.mutate(file, {
      onSuccess: (document) => setDone(`${document.fileName} is attached.`),
      onError: (error) => setProblem(problemOf(error)),
    });
  };
  return { pending: upload.isPending, problem, done, send };
}

function UploadResult({ problem, done }: { problem: string | null; done: string | null }) {
  return (
    <>
      {problem && (
        <div className="alert error" role="alert">
          {problem}
        </div>
      )}
      {done && !problem && (
        <div className="alert success" role="status">
          {done}
        </div>
      )}
    </>
  );
}
