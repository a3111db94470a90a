import { PageHeader } from "@/components/ui/page-header";

export const metadata = { title: "Information requests" };

export default function InformationRequestsPage() {
  return <PageHeader title="Information requests" description="Compliance information requests raised against your platform." />;
}
