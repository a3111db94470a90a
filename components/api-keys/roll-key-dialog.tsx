"use client";

import { useId, useState } from "react";
import type { FieldError, UseFormRegisterReturn } from "react-hook-form";
import { ExpiryField } from "@/components/api-keys/expiry-field";
import { IssuedSecret } from "@/components/api-keys/issued-secret";
import {
  expiryBounds,
  formPath,
  OVERLAP_CHOICES,
  rollBody,
  rollFormFields,
  rollKeyResolver,
  type RollFormValues,
} from "@/components/api-keys/key-form";
import {
  apiKeysQueryKey,
  labelOf,
  useApiKeys,
  type ApiKey,
  type ApiKeyCreated,
} from "@/components/api-keys/use-api-keys";
import { StepUpForm } from "@/components/step-up-form";
import { Dialog, useDialogResult } from "@/components/ui/dialog";
import { DateTime } from "@/components/ui/format";
import { useApiForm } from "@/components/use-api-form";
import { rollApiKeyEndpoint } from "@/lib/api-keys/endpoints";
import { api } from "@/lib/client/api";

type Rolled = { key: ApiKeyCreated; overlapSeconds: number };

/**
 * Rolls a key (POST /v1/api_keys/{key}/roll): a new secret with the same name, permissions and
 * allowlist, while the old one keeps working for the chosen overlap; then shows the new secret once.
 */
export function RollKeyDialog({ apiKey, onClose }: { apiKey: ApiKey | null; onClose: () => void }) {
  const [rolled, setRolled, close] = useDialogResult<Rolled>(onClose);
  return (
    <Dialog open={apiKey !== null} onClose={close} title={rolled ? "Your new API key" : "Roll API key"}>
      {apiKey &&
        (rolled ? (
          <IssuedSecret issued={rolled.key} onDone={close}>
            <OldSecretNotice oldKey={apiKey} overlapSeconds={rolled.overlapSeconds} />
          </IssuedSecret>
        ) : (
          <RollKeyForm apiKey={apiKey} onRolled={setRolled} onCancel={close} />
        ))}
    </Dialog>
  );
}

function RollKeyForm({
  apiKey,
  onRolled,
  onCancel,
}: {
  apiKey: ApiKey;
  onRolled: (rolled: Rolled) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [bounds] = useState(() => expiryBounds());
  const apiForm = useApiForm<RollFormValues, ApiKeyCreated>({
    resolver: rollKeyResolver,
    // An hour by default: a roll should not break the systems still using the old secret.
    defaultValues: { expiresOn: bounds.suggested, overlapSeconds: "3600", code: "" },
    submit: (values) =>
      api(rollApiKeyEndpoint, { params: { key: apiKey.id }, body: rollBody(values), totpCode: values.code.trim() }),
    // Awaited before the secret shows, so the old key's new expiry is already in the list.
    invalidates: [apiKeysQueryKey],
    onDone: (key, values) => onRolled({ key, overlapSeconds: Number(values.overlapSeconds) }),
    fields: rollFormFields,
    formPath,
  });
  const { form } = apiForm;
  const { errors } = form.formState;
  return (
    <StepUpForm apiForm={apiForm} onCancel={onCancel} confirmLabel="Roll key" pendingLabel="Rolling…">
      <p style={{ margin: 0 }}>
        Roll <strong>{labelOf(apiKey)}</strong> (<code>{apiKey.prefix}…</code>): you get a new secret with the same
        name, permissions and allowed addresses. The old secret stops when the overlap you choose ends.
      </p>
      <ExpiryField
        label="New secret expires on"
        what="The new secret"
        bounds={bounds}
        registration={form.register("expiresOn")}
        error={errors.expiresOn}
      />
      <OverlapPicker id={id} registration={form.register("overlapSeconds")} error={errors.overlapSeconds} />
    </StepUpForm>
  );
}

/** How long the old secret keeps working after the roll: one of OVERLAP_CHOICES, each with its hint. */
function OverlapPicker({
  id,
  registration,
  error,
}: {
  id: string;
  registration: UseFormRegisterReturn<"overlapSeconds">;
  error: FieldError | undefined;
}) {
  return (
    <fieldset className="overlap-picker" aria-describedby={error?.message ? `${id}-error` : undefined}>
      <legend>Old secret keeps working for</legend>
      {OVERLAP_CHOICES.map((choice) => (
        <div key={choice.seconds} className="overlap-option">
          <input
            type="radio"
            id={`${id}-${choice.seconds}`}
            value={String(choice.seconds)}
            aria-describedby={`${id}-${choice.seconds}-hint`}
            {...registration}
          />
          <label htmlFor={`${id}-${choice.seconds}`}>{choice.label}</label>
          <span id={`${id}-${choice.seconds}-hint`} className="hint">
            {choice.hint}
          </span>
        </div>
      ))}
      {error?.message && (
        <span id={`${id}-error`} className="field-error" role="alert">
          {error.message}
        </span>
      )}
    </fieldset>
  );
}

/** When the old secret stops: the list's fresh answer (the roll may have kept its earlier expiry), else what was asked for. */
function OldSecretNotice({ oldKey, overlapSeconds }: { oldKey: ApiKey; overlapSeconds: number }) {
  const keys = useApiKeys();
  const fresh = keys.data?.find((key) => key.id === oldKey.id);
  // The notice says how things stand when it renders: the clock is read on each render on purpose.
  const stopsAt =
    fresh?.expiresAt ??
    // eslint-disable-next-line react-hooks/purity
    new Date(Math.min(Date.now() + overlapSeconds * 1000, Date.parse(oldKey.expiresAt))).toISOString();
  return (
    <p className="alert info" role="note" style={{ margin: 0 }}>
      {/* eslint-disable-next-line react-hooks/purity */}
      {overlapSeconds === 0 || Date.parse(stopsAt) <= Date.now() ? (
        <>
          The old secret (<code>{oldKey.prefix}…</code>) has stopped working.
        </>
      ) : (
        <>
          The old secret (<code>{oldKey.prefix}…</code>) keeps working until <DateTime value={stopsAt} day />, then
          stops. Put the new one in place before then.
        </>
      )}
    </p>
  );
}
