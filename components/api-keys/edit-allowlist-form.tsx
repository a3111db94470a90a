"use client";

import { CidrAllowlistEditor } from "@/components/api-keys/cidr-allowlist-editor";
import {
  allowlistBody,
  formPath,
  keyFormFields,
  updateAllowlistResolver,
  type KeyFormValues,
} from "@/components/api-keys/key-form";
import { apiKeysQueryKey, labelOf, type ApiKey } from "@/components/api-keys/use-api-keys";
import { StepUpForm } from "@/components/step-up-form";
import { useApiForm } from "@/components/use-api-form";
import { updateApiKeyEndpoint } from "@/lib/api-keys/endpoints";
import { api } from "@/lib/client/api";

/** Replaces a key's CIDR allowlist (POST /v1/api_keys/{key}); needs an authenticator code. */
export function EditAllowlistForm({
  apiKey,
  onCancel,
  onSaved,
}: {
  apiKey: ApiKey;
  onCancel: () => void;
  onSaved: (key: ApiKey) => void;
}) {
  const apiForm = useApiForm<KeyFormValues, ApiKey>({
    resolver: updateAllowlistResolver,
    defaultValues: {
      name: "",
      expiresOn: "",
      cidrAllowlist: apiKey.cidrAllowlist.map((value) => ({ value })),
      permissions: apiKey.permissions,
      // Not sent: this form changes the allowlist only.
      rateLimit: { requests: "", perSeconds: "" },
      code: "",
    },
    submit: (values) =>
      api(updateApiKeyEndpoint, {
        params: { key: apiKey.id },
        body: allowlistBody(values),
        totpCode: values.code.trim(),
      }),
    invalidates: [apiKeysQueryKey],
    onDone: onSaved,
    fields: keyFormFields,
    formPath,
  });
  return (
    <StepUpForm apiForm={apiForm} onCancel={onCancel} confirmLabel="Save allowlist" pendingLabel="Saving…">
      <p style={{ margin: 0 }}>
        Addresses allowed to use <strong>{labelOf(apiKey)}</strong> (<code>{apiKey.prefix}…</code>). The new list
        replaces the old one at once.
      </p>
      <CidrAllowlistEditor form={apiForm.form} />
    </StepUpForm>
  );
}
