"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm, type FieldErrors, type UseFormRegister } from "react-hook-form";
import { z } from "zod";
import { DialogFor } from "@/components/step-up-form";
import { Field } from "@/components/ui/field";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import { Notice } from "@/components/ui/use-page-dialogs";
import { currentAccountId } from "@/lib/client/current-account";
import { queryKey } from "@/lib/client/query-keys";
import { getSettingsEndpoint } from "@/lib/settings/endpoints";
import { RETENTION_LIMITS, retentionSchema } from "@/lib/settings/schemas";
import type { PlatformSettings } from "./platform-settings";
import { SaveSettingsForm } from "./save-settings-form";

type Retention = PlatformSettings["retention"];
type Name = keyof Retention;

/** A box's text as the number the API takes, checked by the API's own schema before a code is spent on it. */
const numberField = (name: Name) =>
  z
    .string()
    .trim()
    .transform((text) => (text === "" ? Number.NaN : Number(text)))
    .pipe(retentionSchema.shape[name]);

const retentionForm = z.object({
  webhookPayloadDays: numberField("webhookPayloadDays"),
  sessionDays: numberField("sessionDays"),
  recordsYears: numberField("recordsYears"),
});
type RetentionInput = z.input<typeof retentionForm>;

const asText = (retention: Retention): RetentionInput => ({
  webhookPayloadDays: String(retention.webhookPayloadDays),
  sessionDays: String(retention.sessionDays),
  recordsYears: String(retention.recordsYears),
});

/** Each box: its label and what it decides, as the page says them. */
const FIELDS: { name: Name; label: string; effect: string }[] = [
  {
    name: "webhookPayloadDays",
    label: "Webhook payloads (days)",
    effect: "a delivery's data is removed this long after its event; the delivery's record stays.",
  },
  {
    name: "sessionDays",
    label: "Ended sessions (days)",
    effect: "sign-in sessions are deleted this long after they end.",
  },
  {
    name: "recordsYears",
    label: "Closed accounts' records (years)",
    effect: "the legal hold: a closed account's personal data may be erased only once this has passed.",
  },
];

/** How long personal data is kept (owners only); saved with an authenticator code, like every platform setting. */
export function RetentionForm({ stored, readOnly }: { stored: PlatformSettings; readOnly: boolean }) {
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(false);
  const [changes, setChanges] = useState<Partial<PlatformSettings> | null>(null);
  const form = useForm<RetentionInput, unknown, z.output<typeof retentionForm>>({
    resolver: zodResolver(retentionForm),
    values: asText(stored.retention),
    resetOptions: { keepDirtyValues: true },
  });
  const { errors, isDirty } = form.formState;
  const onSubmit = form.handleSubmit((retention) => {
    setSaved(false);
    setChanges({ retention });
  });
  const onSaved = (updated: PlatformSettings) => {
    setChanges(null);
    form.reset(asText(updated.retention));
    setSaved(true);
    queryClient.setQueryData(queryKey(getSettingsEndpoint, { accountId: currentAccountId() }), updated);
  };
  return (
    <>
      <form className="card stack" onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Retention">
        <RetentionFields
          register={form.register}
          errors={errors}
          readOnly={readOnly}
          onChange={() => setSaved(false)}
        />
        {!readOnly && (
          <div className="row" style={{ alignItems: "center" }}>
            <button type="submit" className="primary" disabled={!isDirty}>
              Save retention
            </button>
            {isDirty && <span className="muted">Unsaved changes.</span>}
          </div>
        )}
        {saved && <Notice>Retention saved. The hourly sweep applies it from its next pass.</Notice>}
      </form>
      <DialogFor subject={changes} onClose={() => setChanges(null)} title="Save settings">
        {(current) => <SaveSettingsForm changes={current} onCancel={() => setChanges(null)} onSaved={onSaved} />}
      </DialogFor>
    </>
  );
}

function RetentionFields({
  register,
  errors,
  readOnly,
  onChange,
}: {
  register: UseFormRegister<RetentionInput>;
  errors: FieldErrors<RetentionInput>;
  readOnly: boolean;
  onChange: () => void;
}) {
  return (
    <>
      <div>
        <h2 style={{ marginTop: 0 }}>Retention</h2>
        <p className="muted" style={{ margin: 0 }}>
          How long personal data is kept. An hourly sweep removes what is older.
        </p>
        <ul className="muted" style={{ margin: "0.4rem 0 0", paddingLeft: "1.25rem" }}>
          {FIELDS.map(({ name, label, effect }) => (
            <li key={name}>
              {label.replace(/ \(.*\)$/, "")}: {effect}
            </li>
          ))}
        </ul>
      </div>
      {readOnly && <ReadOnlyNote>Only owners change how long data is kept.</ReadOnlyNote>}
      <fieldset className="plain row" disabled={readOnly}>
        <legend className="visually-hidden">Retention</legend>
        {FIELDS.map(({ name, label }) => {
          const { min, max, unit } = RETENTION_LIMITS[name];
          return (
            <Field
              key={name}
              label={label}
              inputMode="numeric"
              hint={`${min} to ${max} ${unit}.`}
              error={errors[name] && { message: `Enter whole ${unit} from ${min} to ${max}.` }}
              data-testid={`retention-${name}`}
              {...register(name, { onChange })}
            />
          );
        })}
      </fieldset>
    </>
  );
}
