"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { showApiError } from "@/components/api-keys/key-form";
import { useMe } from "@/components/me";
import { TotpCodeField } from "@/components/totp-code-field";
import { ErrorMessage } from "@/components/ui/data-state";
import { Dialog } from "@/components/ui/dialog";
import { api } from "@/lib/client/api";
import { totpConfirmInput } from "@/lib/employees/schemas";
import { SETTINGS, type PlatformSettings } from "./platform-settings";

type Changes = Partial<PlatformSettings>;

/** Names the changes about to be saved and takes the authenticator code POST /v1/settings needs. */
export function SaveSettingsDialog({ changes, onClose, onSaved }: { changes: Changes | null; onClose: () => void; onSaved: (settings: PlatformSettings) => void }) {
  return (
    <Dialog open={changes !== null} onClose={onClose} title="Save settings">
      {changes && <SaveSettingsForm changes={changes} onCancel={onClose} onSaved={onSaved} />}
    </Dialog>
  );
}

function SaveSettingsForm({ changes, onCancel, onSaved }: { changes: Changes; onCancel: () => void; onSaved: (settings: PlatformSettings) => void }) {
  const me = useMe();
  const form = useForm<z.input<typeof totpConfirmInput>, unknown, z.output<typeof totpConfirmInput>>({
    resolver: zodResolver(totpConfirmInput),
    defaultValues: { code: "" },
  });
  const [formError, setFormError] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async ({ code }) => {
    setFormError(null);
    try {
      onSaved(await api<PlatformSettings>("/v1/settings", { method: "POST", body: changes, totpCode: code }));
    } catch (error) {
      setFormError(showApiError(error, form.setError, ["code"]));
    }
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <ul className="stack" style={{ margin: 0, paddingLeft: "1.25rem", gap: "0.4rem" }} aria-label="Changes">
        {SETTINGS.filter(({ name }) => changes[name] !== undefined).map(({ name, label }) => (
          <li key={name}>
            {changes[name] ? "Turn on" : "Turn off"} <strong>{label.toLowerCase()}</strong>
          </li>
        ))}
      </ul>
      <TotpCodeField registration={form.register("code")} error={errors.code} />
      <ErrorMessage error={formError} />
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={!me.twoFactorEnabled || isSubmitting}>
          {isSubmitting ? "Saving…" : "Save settings"}
        </button>
      </div>
    </form>
  );
}
