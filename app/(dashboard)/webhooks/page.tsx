import { WebhooksList } from "./webhooks-list";

export const metadata = { title: "Webhooks" };

export default function WebhooksPage() {
  return <WebhooksList />;
}
