"use client";

import Link from "next/link";
import { DateTime, StatusBadge } from "@/components/ui/format";
import { kindLabels, type InformationRequest } from "./hooks";

/** Information requests as a table: each links to its page, and to the transfer or KYC submission it concerns. */
export function RequestsTable({ requests, caption }: { requests: InformationRequest[]; caption: string }) {
  return (
    <div className="table-wrap">
      <table className="cards">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Request</th>
            <th scope="col">Kind</th>
            <th scope="col">Status</th>
            <th scope="col">Concerns</th>
            <th scope="col">Created</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {requests.map((request) => (
            <tr key={request.id} data-testid="information-request-row">
              <td data-label="Request">
                <Link href={`/information-requests/${encodeURIComponent(request.id)}`}>
                  <code>{request.id}</code>
                </Link>
              </td>
              <td data-label="Kind" data-testid="kind">{kindLabels[request.kind]}</td>
              <td data-label="Status">
                <StatusBadge status={request.status} />
              </td>
              <td data-label="Concerns">
                <div style={{ display: "grid", gap: "0.2rem" }}>
                  {request.transferId && (
                    <Link href={`/information-requests?transferId=${encodeURIComponent(request.transferId)}`} aria-label={`Transfer ${request.transferId}`}>
                      Transfer <code>{request.transferId}</code>
                    </Link>
                  )}
                  {request.submissionId && (
                    <Link href={`/kyc/submissions/${encodeURIComponent(request.submissionId)}`} aria-label={`KYC submission ${request.submissionId}`}>
                      KYC <code>{request.submissionId}</code>
                    </Link>
                  )}
                  {!request.transferId && !request.submissionId && <span className="muted">Account</span>}
                </div>
              </td>
              <td data-label="Created">
                <DateTime value={request.createdAt} />
              </td>
              <td data-label="Updated">
                <DateTime value={request.updatedAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
