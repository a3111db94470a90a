import { ApiKeyDetailView } from "./api-key-detail-view";

export const metadata = { title: "API key" };

export default async function ApiKeyPage({ params }: { params: Promise<{ key: string }> }) {
  const { key } = await params;
  return <ApiKeyDetailView id={key} />;
}
