"use client";

import { useId } from "react";
import { RateLimitFields } from "@/components/api-keys/key-rate-limit";
import {
  describeRateLimit,
  keyRateLimitFields,
  keyRateLimitResolver,
  rateLimitBody,
  rateLimitText,
  type KeyRateLimitFormValues,
} from "@/components/api-keys/rate-limit";
import { apiKeysQueryKey, labelOf, type ApiKey } from "@/components/api-keys/use-api-keys";
import { StepUpForm } from "@/components/step-up-form";
import { useApiForm } from "@/components/use-api-form";
import { updateApiKeyEndpoint } from "@/lib/api-keys/endpoints";
import type { RateLimit } from "@/lib/api-keys/schemas";
import { api } from "@/lib/client/api";

/** Gives a key its own rate limit, or the platform's default again (POST /v1/api_keys/{key}); needs an authenticator code. */
export function EditRateLimitForm({
  apiKey,
  platformDefault,
  onCancel,
  onSaved,
}: {
  apiKey: ApiKey;
  platformDefault: RateLimit | undefined;
  onCancel: () => void;
  onSaved: (key: ApiKey) => void;
}) {
  const id = useId();
  const apiForm = useEditRateLimitForm(apiKey, platformDefault, onSaved);
  const { form } = apiForm;
  const own = form.watch("choice") === "own";
  const { errors } = form.formState;
  return (
    <StepUpForm apiForm={apiForm} onCancel={onCancel} confirmLabel="Save rate limit" pendingLabel="Saving…">
      <p style={{ margin: 0 }}>
        How many requests <strong>{labelOf(apiKey)}</strong> (<code>{apiKey.prefix}…</code>) may send; past the limit,
        requests answer 429 until the window ends. The change applies at once.
      </p>
      <fieldset className="overlap-picker">
        <legend>Limit</legend>
        <div className="overlap-option">
          <input type="radio" id={`${id}-default`} value="default" {...form.register("choice")} />
          <label htmlFor={`${id}-default`}>Platform default</label>
          <span className="hint">
            {platformDefault
              ? `Now ${describeRateLimit(platformDefault)}; follows the Settings page.`
              : "Follows the Settings page."}
          </span>
        </div>
        <div className="overlap-option">
          <input type="radio" id={`${id}-own`} value="own" {...form.register("choice")} />
          <label htmlFor={`${id}-own`}>Its own limit</label>
        </div>
      </fieldset>
      {own && (
        <RateLimitFields
          legend="Its own limit"
          requests={form.register("rateLimit.requests")}
          perSeconds={form.register("rateLimit.perSeconds")}
          errors={errors.rateLimit}
        />
      )}
    </StepUpForm>
  );
}

function useEditRateLimitForm(apiKey: ApiKey, platformDefault: RateLimit | undefined, onSaved: (key: ApiKey) => void) {
  return useApiForm<KeyRateLimitFormValues, ApiKey>({
    resolver: keyRateLimitResolver,
    defaultValues: {
      choice: apiKey.rateLimit ? "own" : "default",
      // Starting from the limit that applies now, so a change is a small edit.
      rateLimit: rateLimitText(apiKey.rateLimit ?? platformDefault ?? null),
      code: "",
    },
    submit: (values) =>
      api(updateApiKeyEndpoint, {
        params: { key: apiKey.id },
        body: rateLimitBody(values),
        totpCode: values.code.trim(),
      }),
    invalidates: [apiKeysQueryKey],
    onDone: onSaved,
    fields: keyRateLimitFields,
  });
}
