"use client";

import { useState } from "react";
import { Controller } from "react-hook-form";
import { CidrAllowlistEditor } from "@/components/api-keys/cidr-allowlist-editor";
import { ExpiryField } from "@/components/api-keys/expiry-field";
import { IssuedSecret } from "@/components/api-keys/issued-secret";
import { platformDefaultPhrase, RateLimitFields, usePlatformKeyRateLimit } from "@/components/api-keys/key-rate-limit";
import {
  expiryBounds,
  formPath,
  issueBody,
  issueKeyResolver,
  keyFormFields,
  type KeyFormValues,
} from "@/components/api-keys/key-form";
import { PermissionPicker } from "@/components/api-keys/permission-picker";
import { readOnlyPermissionsFor } from "@/components/api-keys/permissions";
import { apiKeysQueryKey, type ApiKeyCreated } from "@/components/api-keys/use-api-keys";
import { useMe } from "@/components/me";
import { StepUpForm } from "@/components/step-up-form";
import { Dialog, useDialogResult } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { useApiForm } from "@/components/use-api-form";
import { issueApiKeyEndpoint } from "@/lib/api-keys/endpoints";
import type { Permission } from "@/lib/auth/permissions";
import { api } from "@/lib/client/api";

/** Issues a key: name, expiry, permissions, allowlist and an authenticator code; then shows the secret, this once. */
export function IssueKeyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [issued, setIssued, close] = useDialogResult<ApiKeyCreated>(onClose);
  return (
    <Dialog open={open} onClose={close} title={issued ? "Your new API key" : "Issue API key"}>
      {issued ? (
        <IssuedSecret issued={issued} onDone={close} />
      ) : (
        <IssueKeyForm onIssued={setIssued} onCancel={close} />
      )}
    </Dialog>
  );
}

function IssueKeyForm({ onIssued, onCancel }: { onIssued: (key: ApiKeyCreated) => void; onCancel: () => void }) {
  const me = useMe();
  const { apiForm, bounds } = useIssueKeyForm(me.permissions, onIssued);
  const platformDefault = usePlatformKeyRateLimit();
  const { form } = apiForm;
  const { errors } = form.formState;
  return (
    <StepUpForm apiForm={apiForm} onCancel={onCancel} confirmLabel="Issue key" pendingLabel="Issuing…">
      <Field
        label="Name"
        placeholder="Payouts service"
        autoComplete="off"
        hint="Optional. Helps you recognise the key later."
        error={errors.name}
        {...form.register("name")}
      />
      <ExpiryField
        label="Expires on"
        what="The key"
        bounds={bounds}
        registration={form.register("expiresOn")}
        error={errors.expiresOn}
      />
      <Controller
        control={form.control}
        name="permissions"
        render={({ field, fieldState }) => (
          <PermissionPicker
            value={field.value}
            onChange={field.onChange}
            held={me.permissions}
            role={me.role}
            error={fieldState.error}
          />
        )}
      />
      <CidrAllowlistEditor form={form} />
      <RateLimitFields
        legend="Rate limit (optional)"
        hint={`Leave both blank for ${platformDefaultPhrase(platformDefault)}, which follows the Settings page.`}
        requests={form.register("rateLimit.requests")}
        perSeconds={form.register("rateLimit.perSeconds")}
        errors={errors.rateLimit}
      />
    </StepUpForm>
  );
}

function useIssueKeyForm(held: readonly Permission[], onIssued: (key: ApiKeyCreated) => void) {
  const [bounds] = useState(() => expiryBounds());
  const apiForm = useApiForm<KeyFormValues, ApiKeyCreated>({
    resolver: issueKeyResolver,
    // Checked at first: read-only (the "Read only" preset); writing is a choice the issuer makes.
    defaultValues: {
      name: "",
      expiresOn: bounds.suggested,
      cidrAllowlist: [],
      permissions: readOnlyPermissionsFor(held),
      rateLimit: { requests: "", perSeconds: "" },
      code: "",
    },
    submit: (values) => api(issueApiKeyEndpoint, { body: issueBody(values), totpCode: values.code.trim() }),
    // The list behind the dialog shows the new key as soon as the dialog closes.
    invalidates: [apiKeysQueryKey],
    onDone: onIssued,
    fields: keyFormFields,
    formPath,
  });
  return { apiForm, bounds };
}
