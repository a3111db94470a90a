"use client";

import { useState } from "react";
import type { QueryValue } from "@/lib/client/api";
import { downloadExport } from "@/lib/client/download-export";

/** "Export CSV": the current view of a list, its filters and order, every page of it, as a file (`path`: its /v1/exports route). */
export function ExportButton({ path, query }: { path: string; query: Record<string, QueryValue> }) {
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const exportCsv = async () => {
    setPending(true);
    setProblem(null);
    try {
      await downloadExport(path, query);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : "The export failed.");
    } finally {
      setPending(false);
    }
  };
  return (
    <div className="export">
      <button type="button" onClick={() => void exportCsv()} disabled={pending}>
        {pending ? "Exporting…" : "Export CSV"}
      </button>
      {problem && (
        <span className="field-error" role="alert">
          {problem}
        </span>
      )}
    </div>
  );
}
