import { RecipientsView } from "./recipients-view";

export const metadata = { title: "Recipients" };

export default function RecipientsPage() {
  return <RecipientsView />;
}
