import { KycSubmissionView } from "./kyc-submission-view";

export const metadata = { title: "KYC submission" };

export default async function KycSubmissionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <KycSubmissionView id={id} />;
}
