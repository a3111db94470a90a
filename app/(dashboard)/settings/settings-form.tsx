"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm, type UseFormRegisterReturn } from "react-hook-form";
import { useCan } from "@/components/me";
import { DialogFor } from "@/components/step-up-form";
import { DataState } from "@/components/ui/data-state";
import { PageHeader } from "@/components/ui/page-header";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import { Notice } from "@/components/ui/use-page-dialogs";
import { useApiQuery, useInvalidate } from "@/lib/client/queries";
import { queryKey } from "@/lib/client/query-keys";
import { currentAccountId } from "@/lib/client/current-account";
import { currentSessionEndpoint } from "@/lib/employees/endpoints";
import { getSettingsEndpoint } from "@/lib/settings/endpoints";
import { SETTINGS, type PlatformSettings, type SwitchSetting } from "./platform-settings";
import { SaveSettingsForm } from "./save-settings-form";
import { SlaForm } from "./sla-form";
import { RateLimitForm } from "./rate-limit-form";
import { RetentionForm } from "./retention-form";
import { SsoSettingsForm } from "@/components/sso/sso-settings-form";

/** The platform's settings (GET /v1/settings); owners and admins change them with an authenticator code. */
export function SettingsForm() {
  const settings = useApiQuery(getSettingsEndpoint);
  const can = useCan();
  const canWrite = can("settings:write");
  return (
    <div className="stack">
      <PageHeader title="Settings" description="Rules for everyone who works on this platform." />
      <DataState query={settings}>
        {settings.data && (
          <>
            <SettingsFields stored={settings.data} />
            <SlaForm stored={settings.data} readOnly={!canWrite} />
            <RateLimitForm stored={settings.data} readOnly={!canWrite} />
            <RetentionForm stored={settings.data} readOnly={!can("owners")} />
            <SsoSettingsForm stored={settings.data} readOnly={!can("owners")} />
          </>
        )}
      </DataState>
    </div>
  );
}

function SettingsFields({ stored }: { stored: PlatformSettings }) {
  const readOnly = !useCan()("settings:write");
  const queryClient = useQueryClient();
  const invalidate = useInvalidate();
  const [saved, setSaved] = useState(false);
  const [changes, setChanges] = useState<Partial<PlatformSettings> | null>(null);
  const form = useForm<PlatformSettings>({ values: stored, resetOptions: { keepDirtyValues: true } });
  const { dirtyFields, isDirty } = form.formState;
  // Only what was changed is sent, so a setting someone else changed meanwhile keeps their value.
  const onSubmit = form.handleSubmit((values) => {
    setSaved(false);
    setChanges(
      Object.fromEntries(SETTINGS.filter(({ name }) => dirtyFields[name]).map(({ name }) => [name, values[name]])),
    );
  });
  const onSaved = async (updated: PlatformSettings) => {
    setChanges(null);
    form.reset(updated);
    setSaved(true);
    queryClient.setQueryData(queryKey(getSettingsEndpoint, { accountId: currentAccountId() }), updated);
    // The session carries the settings too (the two-factor gate reads them there).
    await invalidate(currentSessionEndpoint);
  };

  return (
    <>
      <form className="card stack" onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Platform settings">
        {readOnly && <ReadOnlyNote>Your role can see these settings; only owners and admins change them.</ReadOnlyNote>}
        <fieldset className="plain stack" disabled={readOnly}>
          <legend className="visually-hidden">Platform settings</legend>
          {SETTINGS.map((setting) => (
            <SettingSwitch
              key={setting.name}
              setting={setting}
              on={stored[setting.name]}
              field={form.register(setting.name, { onChange: () => setSaved(false) })}
            />
          ))}
        </fieldset>
        {!readOnly && (
          <div className="row" style={{ alignItems: "center" }}>
            <button type="submit" className="primary" disabled={!isDirty}>
              Save settings
            </button>
            {isDirty && <span className="muted">Unsaved changes.</span>}
          </div>
        )}
        {saved && <Notice>Settings saved. They apply to every employee from their next request.</Notice>}
      </form>
      <DialogFor subject={changes} onClose={() => setChanges(null)} title="Save settings">
        {(current) => <SaveSettingsForm changes={current} onCancel={() => setChanges(null)} onSaved={onSaved} />}
      </DialogFor>
    </>
  );
}

/** One setting's switch, its saved value beside it, and what it does. */
function SettingSwitch({
  setting: { name, label, effect },
  on,
  field,
}: {
  setting: (typeof SETTINGS)[number];
  on: boolean;
  field: UseFormRegisterReturn<SwitchSetting>;
}) {
  return (
    <div className="setting">
      <input
        type="checkbox"
        role="switch"
        id={`setting-${name}`}
        aria-describedby={`setting-${name}-effect`}
        {...field}
      />
      <label htmlFor={`setting-${name}`}>{label}</label>
      <span className={`badge ${on ? "ok" : ""}`} title="Saved value" data-testid={`setting-${name}-state`}>
        {on ? "On" : "Off"}
      </span>
      <p id={`setting-${name}-effect`} className="muted setting-effect">
        {effect}
      </p>
    </div>
  );
}
