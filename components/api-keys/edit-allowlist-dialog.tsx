"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { CidrAllowlistEditor } from "@/components/api-keys/cidr-allowlist-editor";
import { allowlistBody, keyFormFields, showApiError, updateAllowlistResolver, type KeyFormValues } from "@/components/api-keys/key-form";
import { apiKeysQueryKey, labelOf, type ApiKey } from "@/components/api-keys/use-api-keys";
import { useMe } from "@/components/me";
import { TotpCodeField } from "@/components/totp-code-field";
import { ErrorMessage } from "@/components/ui/data-state";
import { Dialog } from "@/components/ui/dialog";
import { api } from "@/lib/client/api";

/** Replaces a key's CIDR allowlist (POST /v1/api_keys/{key}); needs an authenticator code. */
export function EditAllowlistDialog({ apiKey, onClose, onSaved }: { apiKey: ApiKey | null; onClose: () => void; onSaved: (key: ApiKey) => void }) {
  return (
    <Dialog open={apiKey !== null} onClose={onClose} title="Edit allowlist">
      {apiKey && <EditAllowlistForm apiKey={apiKey} onCancel={onClose} onSaved={onSaved} />}
    </Dialog>
  );
}

function EditAllowlistForm({ apiKey, onCancel, onSaved }: { apiKey: ApiKey; onCancel: () => void; onSaved: (key: ApiKey) => void }) {
  const me = useMe();
  const queryClient = useQueryClient();
  const form = useForm<KeyFormValues>({
    resolver: updateAllowlistResolver,
    defaultValues: { name: "", expiresOn: "", cidrAllowlist: apiKey.cidrAllowlist.map((value) => ({ value })), permissions: apiKey.permissions, code: "" },
  });
  const update = useMutation({
    mutationFn: (values: KeyFormValues) =>
      api<ApiKey>(`/v1/api_keys/${encodeURIComponent(apiKey.id)}`, { method: "POST", body: allowlistBody(values), totpCode: values.code.trim() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
  const [formError, setFormError] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      onSaved(await update.mutateAsync(values));
    } catch (error) {
      setFormError(showApiError(error, form.setError, keyFormFields));
    }
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <p style={{ margin: 0 }}>
        Addresses allowed to use <strong>{labelOf(apiKey)}</strong> (<code>{apiKey.prefix}…</code>). The new list replaces the old one at once.
      </p>
      <CidrAllowlistEditor form={form} />
      <TotpCodeField registration={form.register("code")} error={errors.code} />
      <ErrorMessage error={formError} />
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={!me.twoFactorEnabled || isSubmitting}>
          {isSubmitting ? "Saving…" : "Save allowlist"}
        </button>
      </div>
    </form>
  );
}
