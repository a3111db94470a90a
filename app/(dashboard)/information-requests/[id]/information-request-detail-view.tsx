"use client";

import Link from "@/components/ui/link";
import { useCan, useMe } from "@/components/me";
import { useTransfer } from "@/components/information-requests/hooks";
import { CaseAssignment } from "@/components/information-requests/case-assignment";
import { kindLabels, priorityLabels, reasonCodeLabels } from "@/components/information-requests/labels";
import { useCasePeople } from "@/components/information-requests/case-people";
import { CaseTimeline } from "@/components/information-requests/case-timeline";
import { useCase, useTimeline, type CaseDetail } from "@/components/information-requests/detail-hooks";
import { DocumentUpload } from "@/components/information-requests/document-upload";
import { DueDate } from "@/components/information-requests/due-date";
import { NoteForm } from "@/components/information-requests/note-form";
import { StatusActions } from "@/components/information-requests/status-actions";
import { TransferDetails } from "@/components/information-requests/transfer-details";
import { DataState } from "@/components/ui/data-state";
import { DetailPage } from "@/components/ui/detail-page";
import { DetailsList, Section } from "@/components/ui/details-list";
import { DateTime, StatusBadge } from "@/components/ui/format";

/**
 * One information request as a case: who works on it, how urgent and when it is due, the moves it
 * allows, its timeline with notes and documents (and the boxes to add both), and what it concerns.
 */
export function InformationRequestDetailView({ id }: { id: string }) {
  return (
    <DetailPage
      id={id}
      query={useCase(id)}
      title={(request) => (request ? `${kindLabels[request.kind]} request` : "Information request")}
      back={{ href: "/information-requests", label: "All information requests" }}
    >
      {(request) => <CaseView request={request} />}
    </DetailPage>
  );
}

function CaseView({ request }: { request: CaseDetail }) {
  const timeline = useTimeline(request.id);
  const people = useCasePeople(request, timeline.data);
  const me = useMe();
  const assignee = request.assigneeId
    ? request.assigneeId === me.id
      ? `${me.name} (you)`
      : (people.nameOf(request.assigneeId) ?? "Another employee")
    : null;
  return (
    <>
      <Section id="details-heading" title="Details" className="card">
        <DetailsList
          items={[
            { term: "Status", value: <StatusBadge status={request.status} />, testId: "request-status" },
            request.decisionReasonCode !== null && {
              term: "Decision reason",
              value: reasonCodeLabels[request.decisionReasonCode],
              testId: "decision-reason-code",
            },
            {
              term: "Assignee",
              value: assignee ?? <span className="muted">Unassigned</span>,
              testId: "request-assignee",
            },
            { term: "Priority", value: priorityLabels[request.priority], testId: "request-priority" },
            { term: "Due", value: <DueDate request={request} /> },
            { term: "Kind", value: kindLabels[request.kind] },
            // A long id wraps rather than widen the page at a phone's width.
            { term: "ID", value: <code style={{ overflowWrap: "anywhere" }}>{request.id}</code> },
            { term: "Created", value: <DateTime value={request.createdAt} /> },
            { term: "Updated", value: <DateTime value={request.updatedAt} /> },
          ]}
        />
      </Section>
      <CaseAssignment request={request} people={people} />
      <StatusActions request={request} />
      <Section id="timeline-heading" title="Timeline">
        <CaseTimeline requestId={request.id} query={timeline} people={people} />
        <Evidence requestId={request.id} />
      </Section>
      <TransferSection transferId={request.transferId} />
      <SubmissionSection request={request} />
    </>
  );
}

/** The note box and the upload, for employees who may work on requests. */
function Evidence({ requestId }: { requestId: string }) {
  const can = useCan();
  if (!can("information_requests:write")) return null;
  return (
    <>
      <h3 style={{ margin: "0.5rem 0 0" }}>Add to the timeline</h3>
      <NoteForm requestId={requestId} />
      <DocumentUpload requestId={requestId} />
    </>
  );
}

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

function SubmissionSection({ request }: { request: CaseDetail }) {
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
