"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm, type FieldErrors, type UseFormRegister } from "react-hook-form";
import { z } from "zod";
import { kindLabels } from "@/components/information-requests/labels";
import { slaHoursSchema } from "@/lib/settings/schemas";
import { DialogFor } from "@/components/step-up-form";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/use-page-dialogs";
import { currentAccountId } from "@/lib/client/current-account";
import { queryKey } from "@/lib/client/query-keys";
import { informationRequestKinds, type InformationRequestKind } from "@/lib/information-requests/schemas";
import { getSettingsEndpoint } from "@/lib/settings/endpoints";
import type { PlatformSettings } from "./platform-settings";
import { SaveSettingsForm } from "./save-settings-form";

/** A blank box is "no SLA"; anything else must be what the API takes (whole hours, 1..8760). */
const hoursField = (kind: InformationRequestKind) =>
  z
    .string()
    .trim()
    .transform((text) => (text === "" ? null : Number(text)))
    // The API's own limits (its settings schema), checked before a code is spent on them.
    .pipe(slaHoursSchema.shape[kind]);

const slaForm = z.object({
  due_diligence: hoursField("due_diligence"),
  endorsement: hoursField("endorsement"),
});
type SlaInput = z.input<typeof slaForm>;

/** One sentence for every refusal of a box (not a number, out of range, a fraction): what it takes. */
const HOURS_MESSAGE = "Enter whole hours from 1 to 8760, or leave it blank for no SLA.";

const asText = (hours: number | null) => (hours === null ? "" : String(hours));

/**
 * SLA hours per kind of information request: a new request is due that many hours after it is
 * raised (blank: no deadline). Saved with an authenticator code, like every platform setting.
 */
export function SlaForm({ stored, readOnly }: { stored: PlatformSettings; readOnly: boolean }) {
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(false);
  const [changes, setChanges] = useState<Partial<PlatformSettings> | null>(null);
  const values = {
    due_diligence: asText(stored.slaHours.due_diligence),
    endorsement: asText(stored.slaHours.endorsement),
  };
  const form = useForm<SlaInput, unknown, z.output<typeof slaForm>>({
    resolver: zodResolver(slaForm),
    values,
    resetOptions: { keepDirtyValues: true },
  });
  const { errors, isDirty } = form.formState;
  const onSubmit = form.handleSubmit((slaHours) => {
    setSaved(false);
    setChanges({ slaHours });
  });
  const onSaved = (updated: PlatformSettings) => {
    setChanges(null);
    form.reset({
      due_diligence: asText(updated.slaHours.due_diligence),
      endorsement: asText(updated.slaHours.endorsement),
    });
    setSaved(true);
    queryClient.setQueryData(queryKey(getSettingsEndpoint, { accountId: currentAccountId() }), updated);
  };
  return (
    <>
      <form className="card stack" onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Service levels">
        <SlaFields register={form.register} errors={errors} readOnly={readOnly} onChange={() => setSaved(false)} />
        {!readOnly && (
          <div className="row" style={{ alignItems: "center" }}>
            <button type="submit" className="primary" disabled={!isDirty}>
              Save SLA
            </button>
            {isDirty && <span className="muted">Unsaved changes.</span>}
          </div>
        )}
        {saved && <Notice>SLA saved. It applies to information requests raised from now on.</Notice>}
      </form>
      <DialogFor subject={changes} onClose={() => setChanges(null)} title="Save settings">
        {(current) => <SaveSettingsForm changes={current} onCancel={() => setChanges(null)} onSaved={onSaved} />}
      </DialogFor>
    </>
  );
}

function SlaFields({
  register,
  errors,
  readOnly,
  onChange,
}: {
  register: UseFormRegister<SlaInput>;
  errors: FieldErrors<SlaInput>;
  readOnly: boolean;
  onChange: () => void;
}) {
  return (
    <>
      <div>
        <h2 style={{ marginTop: 0 }}>SLA hours per kind</h2>
        <p className="muted" style={{ margin: 0 }}>
          A new information request is due this many hours after it is raised; past that, it is overdue. Blank: no
          deadline. A change applies to requests raised afterwards.
        </p>
      </div>
      <fieldset className="plain row" disabled={readOnly}>
        <legend className="visually-hidden">SLA hours per kind</legend>
        {informationRequestKinds.map((kind) => (
          <Field
            key={kind}
            label={`${kindLabels[kind]} (hours)`}
            inputMode="numeric"
            hint="1 to 8760 (a year)."
            error={errors[kind] && { message: HOURS_MESSAGE }}
            data-testid={`sla-${kind}`}
            {...register(kind, { onChange })}
          />
        ))}
      </fieldset>
    </>
  );
}
