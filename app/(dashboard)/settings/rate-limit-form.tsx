"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { rateLimitSchema, RATE_LIMIT_REQUESTS_MAX, RATE_LIMIT_SECONDS_MAX } from "@/lib/api-keys/schemas";
import { DialogFor } from "@/components/step-up-form";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/use-page-dialogs";
import { currentAccountId } from "@/lib/client/current-account";
import { queryKey } from "@/lib/client/query-keys";
import { getSettingsEndpoint } from "@/lib/settings/endpoints";
import type { PlatformSettings } from "./platform-settings";
import { SaveSettingsForm } from "./save-settings-form";

/** A box's text as the number the API takes, checked by the API's own schema before a code is spent on it. */
const numberField = (name: keyof typeof rateLimitSchema.shape) =>
  z
    .string()
    .trim()
    .transform((text) => (text === "" ? Number.NaN : Number(text)))
    .pipe(rateLimitSchema.shape[name]);

const rateLimitForm = z.object({ requests: numberField("requests"), perSeconds: numberField("perSeconds") });
type RateLimitInput = z.input<typeof rateLimitForm>;
type DefaultKeyRateLimit = PlatformSettings["defaultKeyRateLimit"];

const asText = ({ requests, perSeconds }: DefaultKeyRateLimit) => ({
  requests: String(requests),
  perSeconds: String(perSeconds),
});

/** The rate limit of every API key without its own; saved with an authenticator code, like every platform setting. */
export function RateLimitForm({ stored, readOnly }: { stored: PlatformSettings; readOnly: boolean }) {
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(false);
  const [changes, setChanges] = useState<Partial<PlatformSettings> | null>(null);
  const form = useForm<RateLimitInput, unknown, z.output<typeof rateLimitForm>>({
    resolver: zodResolver(rateLimitForm),
    values: asText(stored.defaultKeyRateLimit),
    resetOptions: { keepDirtyValues: true },
  });
  const { errors, isDirty } = form.formState;
  const onSubmit = form.handleSubmit((defaultKeyRateLimit) => {
    setSaved(false);
    setChanges({ defaultKeyRateLimit });
  });
  const onSaved = (updated: PlatformSettings) => {
    setChanges(null);
    form.reset(asText(updated.defaultKeyRateLimit));
    setSaved(true);
    queryClient.setQueryData(queryKey(getSettingsEndpoint, { accountId: currentAccountId() }), updated);
  };
  return (
    <>
      <form
        className="card stack"
        onSubmit={(event) => void onSubmit(event)}
        noValidate
        aria-label="API key rate limit"
      >
        <RateLimitFields form={form} errors={errors} readOnly={readOnly} onChange={() => setSaved(false)} />
        {!readOnly && (
          <div className="row" style={{ alignItems: "center" }}>
            <button type="submit" className="primary" disabled={!isDirty}>
              Save rate limit
            </button>
            {isDirty && <span className="muted">Unsaved changes.</span>}
          </div>
        )}
        {saved && <Notice>Rate limit saved. It applies at once to every key without its own.</Notice>}
      </form>
      <DialogFor subject={changes} onClose={() => setChanges(null)} title="Save settings">
        {(current) => <SaveSettingsForm changes={current} onCancel={() => setChanges(null)} onSaved={onSaved} />}
      </DialogFor>
    </>
  );
}

function RateLimitFields({
  form,
  errors,
  readOnly,
  onChange,
}: {
  form: ReturnType<typeof useForm<RateLimitInput, unknown, z.output<typeof rateLimitForm>>>;
  errors: ReturnType<typeof useForm<RateLimitInput>>["formState"]["errors"];
  readOnly: boolean;
  onChange: () => void;
}) {
  return (
    <>
      <div>
        <h2 style={{ marginTop: 0 }}>API key rate limit</h2>
        <p className="muted" style={{ margin: 0 }}>
          Every key without a limit of its own may send this many requests per window; past it, requests answer 429
          until the window ends.
        </p>
      </div>
      <fieldset className="plain row" disabled={readOnly}>
        <legend className="visually-hidden">API key rate limit</legend>
        <Field
          label="Requests"
          inputMode="numeric"
          hint={`1 to ${RATE_LIMIT_REQUESTS_MAX}.`}
          error={errors.requests && { message: `Enter a whole number from 1 to ${RATE_LIMIT_REQUESTS_MAX}.` }}
          data-testid="rate-limit-requests"
          {...form.register("requests", { onChange })}
        />
        <Field
          label="Window (seconds)"
          inputMode="numeric"
          hint={`1 to ${RATE_LIMIT_SECONDS_MAX} (an hour).`}
          error={errors.perSeconds && { message: `Enter a whole number from 1 to ${RATE_LIMIT_SECONDS_MAX}.` }}
          data-testid="rate-limit-per-seconds"
          {...form.register("perSeconds", { onChange })}
        />
      </fieldset>
    </>
  );
}
