"use client";

import Link from "@/components/ui/link";
import {
  kindLabels,
  useInformationRequest,
  useTransfer,
  type InformationRequestDetail,
} from "@/components/information-requests/hooks";
import { StatusActions } from "@/components/information-requests/status-actions";
import { TransferDetails } from "@/components/information-requests/transfer-details";
import { DataState } from "@/components/ui/data-state";
import { DetailPage } from "@/components/ui/detail-page";
import { DetailsList, Section } from "@/components/ui/details-list";
import { DateTime, StatusBadge } from "@/components/ui/format";

/** One information request: its fields, what it concerns (a transfer, a KYC submission) and the moves it allows. */
export function InformationRequestDetailView({ id }: { id: string }) {
  return (
    <DetailPage
      id={id}
      query={useInformationRequest(id)}
      title={(request) => (request ? `${kindLabels[request.kind]} request` : "Information request")}
      back={{ href: "/information-requests", label: "All information requests" }}
    >
      {(request) => (
        <>
          <Section id="details-heading" title="Details" className="card">
            <DetailsList
              items={[
                { term: "Status", value: <StatusBadge status={request.status} />, testId: "request-status" },
                { term: "Kind", value: kindLabels[request.kind] },
                { term: "ID", value: <code>{request.id}</code> },
                { term: "Created", value: <DateTime value={request.createdAt} /> },
                { term: "Updated", value: <DateTime value={request.updatedAt} /> },
              ]}
            />
          </Section>
          <ReviewHistory request={request} />
          <StatusActions request={request} />
          <TransferSection transferId={request.transferId} />
          <SubmissionSection request={request} />
        </>
      )}
    </DetailPage>
  );
}

/** Who started the review and who decided, when and why: the request's own record of its decision. */
function ReviewHistory({ request }: { request: InformationRequestDetail }) {
  const decided = request.status === "approved" || request.status === "rejected" || request.status === "expired";
  return (
    <Section id="history-heading" title="Review and decision">
      <ol className="timeline" data-testid="review-history">
        <li>
          <strong>Requested</strong> <DateTime value={request.createdAt} />
        </li>
        {request.reviewStartedAt && (
          <li>
            <strong>Review started</strong> by {request.reviewer?.name ?? "a former employee"}{" "}
            <When value={request.reviewStartedAt} />
          </li>
        )}
        {decided && (
          <li>
            <strong>{statusWords[request.status]}</strong>
            {request.decidedBy
              ? ` by ${request.decidedBy.name}`
              : request.decidedById
                ? " by a former employee"
                : " without a reviewer"}{" "}
            {request.decidedAt && <When value={request.decidedAt} />}
            {request.decisionReason && <blockquote className="reason">{request.decisionReason}</blockquote>}
          </li>
        )}
        {!request.reviewStartedAt && !decided && <li className="muted">Nobody has started reviewing it yet.</li>}
      </ol>
    </Section>
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
    <Section id="transfer-heading" title="Transfer">
      {transferId === null ? (
        <p className="muted" style={{ margin: 0 }}>
          This request concerns no transfer.
        </p>
      ) : (
        <DataState query={query}>
          {query.data && (
            <>
              <TransferDetails transfer={query.data} withId />
              <div>
                <Link href={`/information-requests?transferId=${encodeURIComponent(query.data.id)}`}>
                  All requests raised against this transfer
                </Link>
              </div>
            </>
          )}
        </DataState>
      )}
    </Section>
  );
}

function SubmissionSection({ request }: { request: InformationRequestDetail }) {
  const submission = request.submission;
  return (
    <Section id="submission-heading" title="KYC submission">
      {submission === null ? (
        <p className="muted" style={{ margin: 0 }}>
          This request concerns no KYC submission.
        </p>
      ) : (
        <>
          <DetailsList
            items={[
              { term: "Type", value: submission.type },
              { term: "Status", value: <StatusBadge status={submission.status} /> },
              { term: "Submitted", value: <DateTime value={submission.createdAt} /> },
            ]}
          />
          <div>
            <Link href={`/kyc/submissions/${encodeURIComponent(submission.id)}`}>
              Open KYC submission <code>{submission.id}</code>
            </Link>
          </div>
        </>
      )}
    </Section>
  );
}
