"use client";

import Link from "next/link";
import { kindLabels, useInformationRequest, useTransfer, type InformationRequestDetail } from "@/components/information-requests/hooks";
import { StatusActions } from "@/components/information-requests/status-actions";
import { DataState } from "@/components/ui/data-state";
import { DateTime, StatusBadge } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";

/** One information request: its fields, what it concerns (a transfer, a KYC submission) and the moves it allows. */
export function InformationRequestDetailView({ id }: { id: string }) {
  const query = useInformationRequest(id);
  const request = query.data;
  return (
    <div className="stack">
      <PageHeader
        title={request ? `${kindLabels[request.kind]} request` : "Information request"}
        description={<code>{id}</code>}
        actions={<Link href="/information-requests">All information requests</Link>}
      />
      <DataState query={query}>
        {request && (
          <>
            <section className="card" aria-labelledby="details-heading">
              <h2 id="details-heading" style={{ marginTop: 0 }}>
                Details
              </h2>
              <dl className="props">
                <dt>Status</dt>
                <dd data-testid="request-status">
                  <StatusBadge status={request.status} />
                </dd>
                <dt>Kind</dt>
                <dd>{kindLabels[request.kind]}</dd>
                <dt>ID</dt>
                <dd>
                  <code>{request.id}</code>
                </dd>
                <dt>Created</dt>
                <dd>
                  <DateTime value={request.createdAt} />
                </dd>
                <dt>Updated</dt>
                <dd>
                  <DateTime value={request.updatedAt} />
                </dd>
              </dl>
            </section>
            <ReviewHistory request={request} />
            <StatusActions request={request} />
            <TransferSection transferId={request.transferId} />
            <SubmissionSection request={request} />
          </>
        )}
      </DataState>
    </div>
  );
}

/** Who started the review and who decided, when and why: the request's own record of its decision. */
function ReviewHistory({ request }: { request: InformationRequestDetail }) {
  const decided = request.status === "approved" || request.status === "rejected" || request.status === "expired";
  return (
    <section className="card stack" aria-labelledby="history-heading">
      <h2 id="history-heading" style={{ margin: 0 }}>
        Review and decision
      </h2>
      <ol className="timeline" data-testid="review-history">
        <li>
          <strong>Requested</strong> <DateTime value={request.createdAt} />
        </li>
        {request.reviewStartedAt && (
          <li>
            <strong>Review started</strong> by {request.reviewer?.name ?? "a former employee"} <When value={request.reviewStartedAt} />
          </li>
        )}
        {decided && (
          <li>
            <strong>{statusWords[request.status]}</strong>
            {request.decidedBy ? ` by ${request.decidedBy.name}` : request.decidedById ? " by a former employee" : " without a reviewer"}{" "}
            {request.decidedAt && <When value={request.decidedAt} />}
            {request.decisionReason && <blockquote className="reason">{request.decisionReason}</blockquote>}
          </li>
        )}
        {!request.reviewStartedAt && !decided && <li className="muted">Nobody has started reviewing it yet.</li>}
      </ol>
    </section>
  );
}

const statusWords: Record<string, string> = { approved: "Approved", rejected: "Rejected", expired: "Expired" };

const When = ({ value }: { value: string }) => (
  <span className="muted">
    · <DateTime value={value} />
  </span>
);

function TransferSection({ transferId }: { transferId: string | null }) {
  const query = useTransfer(transferId);
  return (
    <section className="card stack" aria-labelledby="transfer-heading">
      <h2 id="transfer-heading" style={{ margin: 0 }}>
        Transfer
      </h2>
      {transferId === null ? (
        <p className="muted" style={{ margin: 0 }}>
          This request concerns no transfer.
        </p>
      ) : (
        <DataState query={query}>
          {query.data && (
            <>
              <dl className="props">
                <dt>Amount</dt>
                <dd data-testid="transfer-amount">
                  {query.data.amount} {query.data.currency}
                </dd>
                <dt>Status</dt>
                <dd>
                  <StatusBadge status={query.data.status} />
                </dd>
                <dt>Recipient</dt>
                <dd>
                  <code>{query.data.recipientId}</code>
                </dd>
                <dt>ID</dt>
                <dd>
                  <code>{query.data.id}</code>
                </dd>
                <dt>Created</dt>
                <dd>
                  <DateTime value={query.data.createdAt} />
                </dd>
              </dl>
              <div>
                <Link href={`/information-requests?transferId=${encodeURIComponent(query.data.id)}`}>All requests raised against this transfer</Link>
              </div>
            </>
          )}
        </DataState>
      )}
    </section>
  );
}

function SubmissionSection({ request }: { request: InformationRequestDetail }) {
  const submission = request.submission;
  return (
    <section className="card stack" aria-labelledby="submission-heading">
      <h2 id="submission-heading" style={{ margin: 0 }}>
        KYC submission
      </h2>
      {submission === null ? (
        <p className="muted" style={{ margin: 0 }}>
          This request concerns no KYC submission.
        </p>
      ) : (
        <>
          <dl className="props">
            <dt>Type</dt>
            <dd>{submission.type}</dd>
            <dt>Status</dt>
            <dd>
              <StatusBadge status={submission.status} />
            </dd>
            <dt>Submitted</dt>
            <dd>
              <DateTime value={submission.createdAt} />
            </dd>
          </dl>
          <div>
            <Link href={`/kyc/submissions/${encodeURIComponent(submission.id)}`}>
              Open KYC submission <code>{submission.id}</code>
            </Link>
          </div>
        </>
      )}
    </section>
  );
}
