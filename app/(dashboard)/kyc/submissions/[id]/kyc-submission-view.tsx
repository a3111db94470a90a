"use client";

import Link from "next/link";
import { AgreementForm } from "@/components/kyc/agreement-form";
import { BeneficiariesTable } from "@/components/kyc/beneficiaries-table";
import { formatShare, isCompleteOwnership } from "@/components/kyc/format";
import { useKycSubmission, type KycSubmissionDetail } from "@/components/kyc/hooks";
import { OwnershipChart } from "@/components/kyc/ownership-chart";
import { DataState } from "@/components/ui/data-state";
import { DateTime, StatusBadge } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { useCan } from "@/components/me";

/** A KYC submission: who owns the applicant and in what shares (flagged when they do not add up), and the agreements accepted. */
export function KycSubmissionView({ id }: { id: string }) {
  const query = useKycSubmission(id);
  const submission = query.data;
  return (
    <div className="stack">
      <PageHeader
        title={submission ? `${submission.type === "business" ? "Business" : "Individual"} KYC submission` : "KYC submission"}
        description={<code>{id}</code>}
        actions={<Link href="/kyc">All KYC submissions</Link>}
      />
      <DataState query={query}>
        {submission && (
          <>
            <section className="card" aria-labelledby="submission-heading">
              <h2 id="submission-heading" style={{ marginTop: 0 }}>
                Details
              </h2>
              <dl className="props">
                <dt>Status</dt>
                <dd>
                  <StatusBadge status={submission.status} />
                </dd>
                <dt>Type</dt>
                <dd>{submission.type === "business" ? "Business" : "Individual"}</dd>
                <dt>Beneficial owners</dt>
                <dd>{submission.beneficiaryCount}</dd>
                <dt>Submitted</dt>
                <dd>
                  <DateTime value={submission.createdAt} />
                </dd>
                <dt>Updated</dt>
                <dd>
                  <DateTime value={submission.updatedAt} />
                </dd>
              </dl>
            </section>
            <Ownership submission={submission} />
            <Agreements submission={submission} />
          </>
        )}
      </DataState>
    </div>
  );
}

function Ownership({ submission }: { submission: KycSubmissionDetail }) {
  const { beneficiaries, totalShare } = submission;
  const complete = isCompleteOwnership(totalShare);
  return (
    <section className="stack" aria-labelledby="owners-heading">
      <h2 id="owners-heading" style={{ margin: 0 }}>
        Beneficial owners
      </h2>
      {!complete && (
        <div className="alert warn" role="alert" data-testid="share-warning">
          <strong>
            Shares add up to {formatShare(totalShare)}, not 100%.
          </strong>{" "}
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
    </section>
  );
}

function Agreements({ submission }: { submission: KycSubmissionDetail }) {
  const can = useCan();
  return (
    <section className="card stack" aria-labelledby="agreements-heading">
      <h2 id="agreements-heading" style={{ margin: 0 }}>
        Agreements
      </h2>
      {submission.agreements.length === 0 ? (
        <p className="muted" style={{ margin: 0 }}>
          No agreements accepted yet.
        </p>
      ) : (
        <div className="table-wrap">
          <table className="cards">
            <caption className="visually-hidden">Accepted agreements</caption>
            <thead>
              <tr>
                <th scope="col">Document set</th>
                <th scope="col">IP address</th>
                <th scope="col">Accepted</th>
              </tr>
            </thead>
            <tbody>
              {submission.agreements.map((agreement) => (
                <tr key={agreement.documentSetId} data-testid="agreement-row">
                  <td data-label="Document set">
                    <code>{agreement.documentSetId}</code>
                  </td>
                  <td data-label="IP address">{agreement.ipAddress ? <code>{agreement.ipAddress}</code> : <span className="muted">Not recorded</span>}</td>
                  <td data-label="Accepted">
                    <DateTime value={agreement.acceptedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {can("kyc:write") && <AgreementForm submissionId={submission.id} />}
    </section>
  );
}
