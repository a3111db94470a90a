"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { StepUpForm } from "@/components/step-up-form";
import { useApiForm } from "@/components/use-api-form";
import { api } from "@/lib/client/api";
import { totpConfirmInput } from "@/lib/employees/schemas";
import { kindLabels } from "@/components/information-requests/labels";
import { updateSettingsEndpoint } from "@/lib/settings/endpoints";
import { informationRequestKinds } from "@/lib/information-requests/schemas";
import { SETTINGS, type PlatformSettings } from "./platform-settings";

type Changes = Partial<PlatformSettings>;

/** Names the changes about to be saved and takes the authenticator code POST /v1/settings needs. */
export function SaveSettingsForm({
  changes,
  onCancel,
  onSaved,
}: {
  changes: Changes;
  onCancel: () => void;
  onSaved: (settings: PlatformSettings) => void | Promise<void>;
}) {
  const apiForm = useApiForm<z.input<typeof totpConfirmInput>, PlatformSettings, z.output<typeof totpConfirmInput>>({
    resolver: zodResolver(totpConfirmInput),
    defaultValues: { code: "" },
    submit: ({ code }) => api(updateSettingsEndpoint, { body: changes, totpCode: code }),
    onDone: onSaved,
    fields: ["code"],
  });
  return (
    <StepUpForm apiForm={apiForm} onCancel={onCancel} confirmLabel="Save settings" pendingLabel="Saving…">
      <ul className="stack" style={{ margin: 0, paddingLeft: "1.25rem", gap: "0.4rem" }} aria-label="Changes">
        {SETTINGS.filter(({ name }) => changes[name] !== undefined).map(({ name, label }) => (
          <li key={name}>
            {changes[name] ? "Turn on" : "Turn off"} <strong>{label.toLowerCase()}</strong>
          </li>
        ))}
        {changes.slaHours && (
          <li>
            Set the SLA:{" "}
            {informationRequestKinds
              .map((kind) => {
                const hours = changes.slaHours?.[kind] ?? null;
                return `${kindLabels[kind].toLowerCase()} ${hours === null ? "none" : `${hours} h`}`;
              })
              .join(", ")}
          </li>
        )}
        {changes.retention && (
          <li>
            Keep webhook payloads {changes.retention.webhookPayloadDays} days, ended sessions{" "}
            {changes.retention.sessionDays} days, closed accounts&apos; records {changes.retention.recordsYears} years
          </li>
        )}
        {changes.defaultKeyRateLimit && (
          <li>
            Limit keys without their own to {changes.defaultKeyRateLimit.requests} requests per{" "}
            {changes.defaultKeyRateLimit.perSeconds} s
          </li>
        )}
      </ul>
    </StepUpForm>
  );
}
