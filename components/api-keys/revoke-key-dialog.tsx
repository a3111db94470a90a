"use client";

import { apiKeysQueryKey, labelOf, type ApiKey } from "@/components/api-keys/use-api-keys";
import { CodeConfirmDialog } from "@/components/step-up-form";
import { revokeApiKeyEndpoint } from "@/lib/api-keys/endpoints";
import { api } from "@/lib/client/api";

/** Asks before revoking a key (DELETE /v1/api_keys/{key}), naming it; needs an authenticator code. */
export function RevokeKeyDialog({
  apiKey,
  onClose,
  onRevoked,
}: {
  apiKey: ApiKey | null;
  onClose: () => void;
  onRevoked: (key: ApiKey) => void;
}) {
  return (
    <CodeConfirmDialog
      subject={apiKey}
      title="Revoke API key"
      confirmLabel="Revoke key"
      pendingLabel="Revoking…"
      danger
      onConfirm={(apiKey, code) => api(revokeApiKeyEndpoint, { params: { key: apiKey.id }, totpCode: code })}
      invalidates={[apiKeysQueryKey]}
      onClose={onClose}
      onDone={onRevoked}
    >
      {(apiKey) => (
        <>
          Revoke <strong>{labelOf(apiKey)}</strong> (<code>{apiKey.prefix}…</code>)? Every request made with it is
          refused from now on. This cannot be undone.
        </>
      )}
    </CodeConfirmDialog>
  );
}
