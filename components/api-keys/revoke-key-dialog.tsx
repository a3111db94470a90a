"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { showApiError } from "@/components/api-keys/key-form";
import { apiKeysQueryKey, labelOf, type ApiKey } from "@/components/api-keys/use-api-keys";
import { useMe } from "@/components/me";
import { TotpCodeField } from "@/components/totp-code-field";
import { ErrorMessage } from "@/components/ui/data-state";
import { Dialog } from "@/components/ui/dialog";
import { api } from "@/lib/client/api";
import { totpConfirmInput } from "@/lib/employees/schemas";

/** Asks before revoking a key (DELETE /v1/api_keys/{key}), naming it; needs an authenticator code. */
export function RevokeKeyDialog({ apiKey, onClose, onRevoked }: { apiKey: ApiKey | null; onClose: () => void; onRevoked: (key: ApiKey) => void }) {
  return (
    <Dialog open={apiKey !== null} onClose={onClose} title="Revoke API key">
      {apiKey && <RevokeKeyForm apiKey={apiKey} onCancel={onClose} onRevoked={onRevoked} />}
    </Dialog>
  );
}

function RevokeKeyForm({ apiKey, onCancel, onRevoked }: { apiKey: ApiKey; onCancel: () => void; onRevoked: (key: ApiKey) => void }) {
  const me = useMe();
  const queryClient = useQueryClient();
  const form = useForm<z.input<typeof totpConfirmInput>>({ resolver: zodResolver(totpConfirmInput), defaultValues: { code: "" } });
  const revoke = useMutation({
    mutationFn: (code: string) => api<ApiKey>(`/v1/api_keys/${encodeURIComponent(apiKey.id)}`, { method: "DELETE", totpCode: code }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
  const [formError, setFormError] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async ({ code }) => {
    setFormError(null);
    try {
      onRevoked(await revoke.mutateAsync(code));
    } catch (error) {
      setFormError(showApiError(error, form.setError, ["code"]));
    }
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <p style={{ margin: 0 }}>
        Revoke <strong>{labelOf(apiKey)}</strong> (<code>{apiKey.prefix}…</code>)? Every request made with it is refused from now on. This cannot be
        undone.
      </p>
      <TotpCodeField registration={form.register("code")} error={errors.code} />
      <ErrorMessage error={formError} />
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="danger" disabled={!me.twoFactorEnabled || isSubmitting}>
          {isSubmitting ? "Revoking…" : "Revoke key"}
        </button>
      </div>
    </form>
  );
}
