import { queryString, type QueryValue } from "@/lib/client/api";
import { currentAccountId } from "@/lib/client/current-account";

/**
 * Downloads one of the /v1/exports routes with these filters as a file (CSV unless `accept` says). Fetched, not linked: the
 * account the page acts for goes as Service-Account-Id, which a plain link cannot send.
 */
export async function downloadExport(
  path: string,
  query: Record<string, QueryValue>,
  { accept = "text/csv", fallbackName = "export.csv" }: { accept?: string; fallbackName?: string } = {},
): Promise<void> {
  const account = currentAccountId();
  const response = await fetch(`${path}${queryString(query)}`, {
    headers: { accept, ...(account ? { "Service-Account-Id": account } : {}) },
    credentials: "same-origin",
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new Error(body?.message ?? `The export failed (${response.status}).`);
  }
  const disposition = response.headers.get("content-disposition") ?? "";
  const fileName = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement("a"), { href: url, download: fileName });
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click has run; the object URL can go after this turn.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
