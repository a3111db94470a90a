"use client";

import { useId } from "react";
import type { FieldError, UseFormRegisterReturn } from "react-hook-form";
import { describeRateLimit } from "@/components/api-keys/rate-limit";
import type { ApiKey } from "@/components/api-keys/use-api-keys";
import { useCan } from "@/components/me";
import { Field } from "@/components/ui/field";
import { RATE_LIMIT_REQUESTS_MAX, RATE_LIMIT_SECONDS_MAX, type RateLimit } from "@/lib/api-keys/schemas";
import { useApiQuery } from "@/lib/client/queries";
import { getSettingsEndpoint } from "@/lib/settings/endpoints";

/** The platform's `defaultKeyRateLimit`, for a role that may read settings (every role today); undefined until known. */
export function usePlatformKeyRateLimit(): RateLimit | undefined {
  const can = useCan();
  const settings = useApiQuery(getSettingsEndpoint, { enabled: can("settings:read") });
  return settings.data?.defaultKeyRateLimit;
}

/** "100 requests per second (platform default)", or only "Platform default" while its value is unknown. */
export const platformDefaultLabel = (platformDefault: RateLimit | undefined) =>
  platformDefault ? `${describeRateLimit(platformDefault)} (platform default)` : "Platform default";

/** "the platform default (100 requests per second)", in a sentence. */
export const platformDefaultPhrase = (platformDefault: RateLimit | undefined) =>
  platformDefault ? `the platform default (${describeRateLimit(platformDefault)})` : "the platform default";

/** A key's limit: its own, or the platform's default (which follows the Settings page). */
export function KeyRateLimit({ apiKey, platformDefault }: { apiKey: ApiKey; platformDefault: RateLimit | undefined }) {
  if (apiKey.rateLimit) return <>{describeRateLimit(apiKey.rateLimit)}</>;
  return <>{platformDefaultLabel(platformDefault)}</>;
}

/** The two boxes of a limit: requests, and the window they are counted in. */
export function RateLimitFields({
  legend,
  hint,
  requests,
  perSeconds,
  errors,
}: {
  legend: string;
  hint?: string;
  requests: UseFormRegisterReturn;
  perSeconds: UseFormRegisterReturn;
  errors?: { requests?: FieldError; perSeconds?: FieldError };
}) {
  const hintId = useId();
  return (
    <fieldset className="rate-limit-fields" aria-describedby={hint ? hintId : undefined}>
      <legend>{legend}</legend>
      {hint && (
        <p id={hintId} className="muted" style={{ margin: 0, fontSize: "0.85rem" }}>
          {hint}
        </p>
      )}
      <div className="row">
        <Field
          label="Requests"
          inputMode="numeric"
          autoComplete="off"
          hint={`1 to ${RATE_LIMIT_REQUESTS_MAX.toLocaleString("en-US")}.`}
          error={errors?.requests}
          {...requests}
        />
        <Field
          label="Per (seconds)"
          inputMode="numeric"
          autoComplete="off"
          hint={`1 to ${RATE_LIMIT_SECONDS_MAX} (an hour).`}
          error={errors?.perSeconds}
          {...perSeconds}
        />
      </div>
    </fieldset>
  );
}
