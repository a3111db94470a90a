"use client";

import { AgreementForm } from "@/components/kyc/agreement-form";
import { BeneficiariesTable } from "@/components/kyc/beneficiaries-table";
import { formatShare, isCompleteOwnership, typeLabel } from "@/components/kyc/format";
import { useKycSubmission, type KycSubmissionDetail } from "@/components/kyc/hooks";
import { OwnershipChart } from "@/components/kyc/ownership-chart";
import { DetailPage } from "@/components/ui/detail-page";
import { DetailsList, Section } from "@/components/ui/details-list";
import { DateTime, StatusBadge } from "@/components/ui/format";
import { ListTable } from "@/components/ui/list-table";
import { useCan } from "@/components/me";

/** A KYC submission: who owns the applicant and in what shares (flagged when they do not add up), and the agreements accepted. */
export function KycSubmissionView({ id }: { id: string }) {
  return (
    <DetailPage
      id={id}
      query={useKycSubmission(id)}
      title={(submission) => (submission ? `${typeLabel(submission.type)} KYC submission` : "KYC submission")}
      back={{ href: "/kyc", label: "All KYC submissions" }}
    >
      {(submission) => (
        <>
          <Section id="submission-heading" title="Details" className="card">
            <DetailsList
              items={[
                { term: "Status", value: <StatusBadge status={submission.status} /> },
                { term: "Type", value: typeLabel(submission.type) },
                { term: "Beneficial owners", value: submission.beneficiaryCount },
                { term: "Submitted", value: <DateTime value={submission.createdAt} /> },
                { term: "Updated", value: <DateTime value={submission.updatedAt} /> },
              ]}
            />
          </Section>
          <Ownership submission={submission} />
          <Agreements submission={submission} />
        </>
      )}
    </DetailPage>
  );
}

function Ownership({ submission }: { submission: KycSubmissionDetail }) {
  const { beneficiaries, totalShare } = submission;
  const complete = isCompleteOwnership(totalShare);
  return (
    <Section id="owners-heading" title="Beneficial owners" className="stack">
      {!complete && (
        <div className="alert warn" role="alert" data-testid="share-warning">
          <strong>Shares add up to {formatShare(totalShare)}, not 100%.</strong>{" "}
          {beneficiaries.length === 0
            ? "The submission names no beneficial owners."
            : `${formatShare(Math.round((100 - totalShare) * 1e6) / 1e6)} of the ownership is not accounted for: ask the applicant who holds it.`}
        </div>
      )}
      {beneficiaries.length === 0 ? (
        <div className="empty card">No beneficial owners recorded.</div>
      ) : (
        <>
          <BeneficiariesTable beneficiaries={beneficiaries} totalShare={totalShare} />
          <div className="card stack">
            <h3 style={{ margin: 0 }}>Ownership shares</h3>
            <OwnershipChart beneficiaries={beneficiaries} totalShare={totalShare} />
          </div>
        </>
      )}
    </Section>
  );
}

function Agreements({ submission }: { submission: KycSubmissionDetail }) {
  const can = useCan();
  return (
    <Section id="agreements-heading" title="Agreements">
      {submission.agreements.length === 0 ? (
        <p className="muted" style={{ margin: 0 }}>
          No agreements accepted yet.
        </p>
      ) : (
        <ListTable
          label="Accepted agreements"
          rows={submission.agreements}
          caption="Accepted agreements"
          rowKey={(agreement) => agreement.documentSetId}
          rowTestId="agreement-row"
          columns={[
            { header: "Document set", cell: (agreement) => <code>{agreement.documentSetId}</code> },
            {
              header: "IP address",
              cell: ({ ipAddress }) =>
                ipAddress ? <code>{ipAddress}</code> : <span className="muted">Not recorded</span>,
            },
            { header: "Accepted", cell: (agreement) => <DateTime value={agreement.acceptedAt} /> },
          ]}
        />
      )}
      {can("kyc:write") && <AgreementForm submissionId={submission.id} />}
    </Section>
  );
}
