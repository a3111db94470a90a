"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { formatShare, isCompleteOwnership } from "@/components/kyc/format";
import { useApplicantProfile, type KycSubmissionSummary } from "@/components/kyc/hooks";
import { DataState } from "@/components/ui/data-state";
import { DateTime, StatusBadge } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { api, queryString } from "@/lib/client/api";

type Page = { items: KycSubmissionSummary[]; next: string | null };

/** The account's KYC submissions, newest first, with incomplete ownership flagged; and the applicant profile. */
export function KycSubmissionList() {
  const query = useInfiniteQuery({
    queryKey: ["kyc-submissions"],
    queryFn: ({ pageParam }) => api<Page>(`/v1/kyc/submissions${queryString({ next: pageParam, limit: 20 })}`),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
  });
  const submissions = query.data?.pages.flatMap((page) => page.items) ?? [];
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
      <section className="stack" aria-labelledby="submissions-heading">
        <h2 id="submissions-heading" style={{ margin: 0 }}>
          Submissions
        </h2>
        <DataState
          // A failed "Load more" keeps the rows already shown; its error appears under them.
          query={{ isPending: query.isPending, error: query.isFetchNextPageError ? null : query.error, refetch: query.refetch }}
          isEmpty={submissions.length === 0} empty="No KYC submissions yet. They appear here once the applicant submits one.">
          <div className="table-wrap">
            <table className="cards">
              <caption className="visually-hidden">KYC submissions</caption>
              <thead>
                <tr>
                  <th scope="col">Submission</th>
                  <th scope="col">Type</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="num">
                    Owners
                  </th>
                  <th scope="col" className="num">
                    Shares total
                  </th>
                  <th scope="col">Submitted</th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {submissions.map((submission) => (
                  <tr key={submission.id} data-testid="kyc-submission-row">
                    <td data-label="Submission">
                      <Link href={`/kyc/submissions/${encodeURIComponent(submission.id)}`}>
                        <code>{submission.id}</code>
                      </Link>
                    </td>
                    <td data-label="Type">{submission.type === "business" ? "Business" : "Individual"}</td>
                    <td data-label="Status">
                      <StatusBadge status={submission.status} />
                    </td>
                    <td className="num" data-label="Owners">
                      {submission.beneficiaryCount}
                    </td>
                    <td className="num" data-label="Shares total">
                      {isCompleteOwnership(submission.totalShare) ? (
                        formatShare(submission.totalShare)
                      ) : (
                        <span className="badge warn" title="The owners' shares do not add up to 100%">
                          {formatShare(submission.totalShare)}, not 100%
                        </span>
                      )}
                    </td>
                    <td data-label="Submitted">
                      <DateTime value={submission.createdAt} />
                    </td>
                    <td data-label="Updated">
                      <DateTime value={submission.updatedAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {query.hasNextPage && (
            <div>
              <button type="button" onClick={() => query.fetchNextPage()} disabled={query.isFetchingNextPage}>
                {query.isFetchingNextPage ? "Loading…" : "Load more"}
              </button>
            </div>
          )}
          {query.isFetchNextPageError && (
            <div className="alert error" role="alert">
              {query.error instanceof Error ? query.error.message : "Could not load more submissions."}
            </div>
          )}
        </DataState>
      </section>
    </div>
  );
}

function ProfileCard() {
  const query = useApplicantProfile();
  const profile = query.data;
  const name = [profile?.firstName, profile?.lastName].filter(Boolean).join(" ");
  return (
    <section className="card row" aria-labelledby="profile-heading" style={{ justifyContent: "space-between", alignItems: "center" }}>
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
      <Link href="/kyc/profile">{profile?.updatedAt ? "Edit the applicant profile" : "Fill in the applicant profile"}</Link>
    </section>
  );
}
