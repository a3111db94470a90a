import { InformationRequestDetailView } from "./information-request-detail-view";

export const metadata = { title: "Information request" };

export default async function InformationRequestPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <InformationRequestDetailView id={id} />;
}
