"use client";

import { useState } from "react";
import type { QueryValue } from "@/lib/client/api";
import { downloadExport } from "@/lib/client/download-export";

/**
 * "Export CSV": the current view of a list, its filters and order, every page of it, as a file (`path`:
 * its /v1/exports route). `format` names another of the route's formats ("NDJSON": `accept` its media type).
 */
export function ExportButton({
  path,
  query,
  format,
}: {
  path: string;
  query: Record<string, QueryValue>;
  format?: { label: string; accept: string; extension: string };
}) {
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const runExport = async () => {
    setPending(true);
    setProblem(null);
    try {
      await downloadExport(
        path,
        query,
        format && { accept: format.accept, fallbackName: `export.${format.extension}` },
      );
    } catch (error) {
      setProblem(error instanceof Error ? error.message : "The export failed.");
    } finally {
      setPending(false);
    }
  };
  return (
    <div className="export">
      <button type="button" onClick={() => void runExport()} disabled={pending}>
        {pending ? "Exporting…" : `Export ${format?.label ?? "CSV"}`}
      </button>
      {problem && (
        <span className="field-error" role="alert">
          {problem}
        </span>
      )}
    </div>
  );
}
