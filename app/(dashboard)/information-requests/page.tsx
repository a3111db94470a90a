import { Suspense } from "react";
import { InformationRequestList } from "./information-request-list";

export const metadata = { title: "Information requests" };

export default function InformationRequestsPage() {
  return (
    <Suspense fallback={<p className="muted" role="status">Loading…</p>}>
      <InformationRequestList />
    </Suspense>
  );
}
