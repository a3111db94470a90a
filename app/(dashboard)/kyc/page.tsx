import { KycSubmissionList } from "./kyc-submission-list";

export const metadata = { title: "KYC" };

export default function KycPage() {
  return <KycSubmissionList />;
}
