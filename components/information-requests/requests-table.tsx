"use client";

import Link from "@/components/ui/link";
import { DateTime, StatusBadge } from "@/components/ui/format";
import { ListTable } from "@/components/ui/list-table";
import { shortId } from "@/lib/client/format";
import { kindLabels, type InformationRequest } from "./hooks";

/** Information requests as a table: each links to its page, and to the transfer or KYC submission it concerns. */
export function RequestsTable({ requests, caption }: { requests: InformationRequest[]; caption: string }) {
  return (
    <ListTable
      label="Information requests"
      rows={requests}
      caption={caption}
      rowTestId="information-request-row"
      columns={[
        {
          header: "Request",
          cell: ({ id }) => (
            <Link href={`/information-requests/${encodeURIComponent(id)}`}>
              <code>{id}</code>
            </Link>
          ),
        },
        { header: "Kind", testId: "kind", cell: (request) => kindLabels[request.kind] },
        { header: "Status", cell: (request) => <StatusBadge status={request.status} /> },
        { header: "Concerns", cell: (request) => <Concerns request={request} /> },
        { header: "Created", cell: (request) => <DateTime value={request.createdAt} /> },
        { header: "Updated", cell: (request) => <DateTime value={request.updatedAt} /> },
      ]}
    />
  );
}

/**
 * The transfer or KYC submission a request was raised against, or the account itself. Each link's
 * visible text is its whole accessible name, so a voice user can say what they see; the id is
 * shortened to fit the table, whole on hover and on the page the link opens.
 */
function Concerns({ request: { transferId, submissionId } }: { request: InformationRequest }) {
  return (
    <div style={{ display: "grid", gap: "0.2rem" }}>
      {transferId && (
        <Link href={`/information-requests?transferId=${encodeURIComponent(transferId)}`} title={transferId}>
          Transfer <code className="nowrap">{shortId(transferId)}</code>
        </Link>
      )}
      {submissionId && (
        <Link href={`/kyc/submissions/${encodeURIComponent(submissionId)}`} title={submissionId}>
          KYC submission <code className="nowrap">{shortId(submissionId)}</code>
        </Link>
      )}
      {!transferId && !submissionId && <span className="muted">Account</span>}
    </div>
  );
}
