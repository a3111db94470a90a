import { ApiKeysList } from "./api-keys-list";

export const metadata = { title: "API keys" };

export default function ApiKeysPage() {
  return <ApiKeysList />;
}
