"use client";

import Link from "@/components/ui/link";
import { formatShare, isCompleteOwnership, typeLabel } from "@/components/kyc/format";
import { useApplicantProfile } from "@/components/kyc/hooks";
import { DataState } from "@/components/ui/data-state";
import { Section } from "@/components/ui/details-list";
import { DateTime, StatusBadge } from "@/components/ui/format";
import { CursorListTable } from "@/components/ui/list-table";
import { PageHeader } from "@/components/ui/page-header";
import { useCursorList } from "@/lib/client/queries";
import { listKycSubmissionsEndpoint } from "@/lib/kyc/endpoints";

/** The account's KYC submissions, newest first, with incomplete ownership flagged; and the applicant profile. */
export function KycSubmissionList() {
  const list = useCursorList(listKycSubmissionsEndpoint);
  return (
    <div className="stack">
      <PageHeader
        title="KYC"
        description="Know-your-customer submissions of your account: beneficial owners, agreements, and the applicant's profile."
        actions={
          <Link className="button" href="/kyc/profile">
            Applicant profile
          </Link>
        }
      />
      <ProfileCard />
      <Section id="submissions-heading" title="Submissions" className="stack">
        <CursorListTable
          label="KYC submissions"
          list={list}
          empty={
            <>
              No KYC submissions yet. They appear here once the applicant submits one through the API: see the{" "}
              <Link href="/docs">API reference</Link>.
            </>
          }
          caption="KYC submissions"
          rowTestId="kyc-submission-row"
          columns={[
            {
              header: "Submission",
              cell: ({ id }) => (
                <Link href={`/kyc/submissions/${encodeURIComponent(id)}`}>
                  <code>{id}</code>
                </Link>
              ),
            },
            { header: "Type", cell: (submission) => typeLabel(submission.type) },
            { header: "Status", cell: (submission) => <StatusBadge status={submission.status} /> },
            { header: "Owners", num: true, cell: (submission) => submission.beneficiaryCount },
            {
              header: "Shares total",
              num: true,
              cell: ({ totalShare }) =>
                isCompleteOwnership(totalShare) ? (
                  formatShare(totalShare)
                ) : (
                  <span className="badge warn" title="The owners' shares do not add up to 100%">
                    {formatShare(totalShare)}, not 100%
                  </span>
                ),
            },
            { header: "Submitted", cell: (submission) => <DateTime value={submission.createdAt} /> },
            { header: "Updated", cell: (submission) => <DateTime value={submission.updatedAt} /> },
          ]}
        />
      </Section>
    </div>
  );
}

function ProfileCard() {
  const query = useApplicantProfile();
  const profile = query.data;
  const name = [profile?.firstName, profile?.lastName].filter(Boolean).join(" ");
  return (
    <section
      className="card row"
      aria-labelledby="profile-heading"
      style={{ justifyContent: "space-between", alignItems: "center" }}
    >
      <div>
        <h2 id="profile-heading" style={{ margin: 0 }}>
          Applicant profile
        </h2>
        <DataState query={query}>
          <p className="muted" style={{ margin: 0 }}>
            {profile?.updatedAt ? (
              <>
                {name || "Unnamed applicant"} · last updated <DateTime value={profile.updatedAt} />
              </>
            ) : (
              "Not filled in yet."
            )}
          </p>
        </DataState>
      </div>
      <Link href="/kyc/profile">
        {profile?.updatedAt ? "Edit the applicant profile" : "Fill in the applicant profile"}
      </Link>
    </section>
  );
}
