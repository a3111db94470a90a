import { ApplicantProfileForm } from "./applicant-profile-form";

export const metadata = { title: "Applicant profile" };

export default function ApplicantProfilePage() {
  return <ApplicantProfileForm />;
}
