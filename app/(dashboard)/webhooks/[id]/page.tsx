import { Suspense } from "react";
import { EndpointDetailView } from "./endpoint-detail-view";

export const metadata = { title: "Webhook endpoint" };

export default async function WebhookEndpointPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense fallback={<p className="muted">Loading…</p>}>
      <EndpointDetailView id={id} />
    </Suspense>
  );
}
