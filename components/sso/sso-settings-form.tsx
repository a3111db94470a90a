"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm, type FieldErrors, type UseFormReturn } from "react-hook-form";
import { z } from "zod";
import { CodeConfirmDialog } from "@/components/step-up-form";
import { ErrorMessage } from "@/components/ui/data-state";
import { Field } from "@/components/ui/field";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import { Notice } from "@/components/ui/use-page-dialogs";
import { useHydrated } from "@/components/use-hydrated";
import { api } from "@/lib/client/api";
import { currentAccountId } from "@/lib/client/current-account";
import { queryKey } from "@/lib/client/query-keys";
import type { ResponseOf } from "@/lib/contract/endpoint";
import { getSettingsEndpoint, updateSettingsEndpoint } from "@/lib/settings/endpoints";
import { ssoTestEndpoint } from "@/lib/sso/endpoints";
import { ssoInput, type SsoInput, type SsoSettings } from "@/lib/sso/schemas";

type Settings = ResponseOf<typeof getSettingsEndpoint>;

const shape = ssoInput.unwrap().shape;
/** The API's own schema, with the domains as one comma-separated box and an empty secret meaning "keep". */
const ssoForm = z.object({
  issuer: shape.issuer,
  clientId: shape.clientId,
  clientSecret: z.string().transform((value) => value || undefined),
  allowedDomains: z
    .string()
    .transform((value) => value.split(/[\s,]+/).filter(Boolean))
    .pipe(shape.allowedDomains.unwrap()),
  enforced: z.boolean(),
});
type FormInput = z.input<typeof ssoForm>;
type FormOutput = z.output<typeof ssoForm>;

const asForm = (stored: SsoSettings): FormInput => ({
  issuer: stored?.issuer ?? "",
  clientId: stored?.clientId ?? "",
  clientSecret: "",
  allowedDomains: stored?.allowedDomains.join(", ") ?? "",
  enforced: stored?.enforced ?? false,
});

/** Single sign-on through the company's OpenID provider: owners set it up, test the issuer and turn it off. */
export function SsoSettingsForm({ stored, readOnly }: { stored: Settings; readOnly: boolean }) {
  const queryClient = useQueryClient();
  const [change, setChange] = useState<{ sso: SsoInput } | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(ssoForm),
    // Read once: after a save the form is reset to what was saved, with the secret box empty again.
    defaultValues: asForm(stored.sso),
  });
  const { errors, isDirty } = form.formState;
  const onSubmit = form.handleSubmit((sso) => {
    setSaved(null);
    setChange({ sso });
  });
  const onSaved = (updated: Settings) => {
    setSaved(change?.sso ? "Single sign-on saved." : "Single sign-on turned off.");
    setChange(null);
    queryClient.setQueryData(queryKey(getSettingsEndpoint, { accountId: currentAccountId() }), updated);
    form.reset(asForm(updated.sso));
  };
  return (
    <>
      <form className="card stack" onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Single sign-on">
        <SsoIntro stored={stored.sso} />
        {readOnly && <ReadOnlyNote>Only owners set up single sign-on.</ReadOnlyNote>}
        <SsoFields form={form} errors={errors} readOnly={readOnly} secretSet={Boolean(stored.sso?.clientSecretSet)} />
        {!readOnly && (
          <div className="row" style={{ alignItems: "center", flexWrap: "wrap" }}>
            <button type="submit" className="primary" disabled={!isDirty}>
              Save single sign-on
            </button>
            {stored.sso && (
              <button type="button" className="danger" onClick={() => setChange({ sso: null })}>
                Turn off
              </button>
            )}
            <TestIssuerButton issuer={() => form.getValues("issuer")} />
          </div>
        )}
        <Notice>{saved}</Notice>
      </form>
      <SsoConfirmDialog change={change} onClose={() => setChange(null)} onDone={onSaved} />
    </>
  );
}

/** The provider's settings; a stored secret is never shown, only said to be there (`secretSet`). */
function SsoFields({
  form,
  errors,
  readOnly,
  secretSet,
}: {
  form: UseFormReturn<FormInput, unknown, FormOutput>;
  errors: FieldErrors<FormInput>;
  readOnly: boolean;
  secretSet: boolean;
}) {
  return (
    <fieldset className="plain stack" disabled={readOnly}>
      <legend className="visually-hidden">Single sign-on</legend>
      <Field
        label="Issuer URL"
        placeholder="https://login.example.com"
        error={errors.issuer}
        {...form.register("issuer")}
      />
      <Field label="Client ID" autoComplete="off" error={errors.clientId} {...form.register("clientId")} />
      <Field
        label="Client secret"
        type="password"
        autoComplete="new-password"
        hint={secretSet ? "Stored, never shown again. Leave empty to keep it." : undefined}
        error={errors.clientSecret}
        {...form.register("clientSecret")}
      />
      <Field
        label="Allowed e-mail domains"
        placeholder="example.com, example.org"
        hint="The e-mail your provider asserts must be at one of these. Empty: any domain."
        error={errors.allowedDomains}
        {...form.register("allowedDomains")}
      />
      <div className="setting">
        <input type="checkbox" role="switch" id="sso-enforced" {...form.register("enforced")} />
        <label htmlFor="sso-enforced">Require single sign-on</label>
        <p className="muted setting-effect">
          Password sign-in is refused for everyone but owners, who keep theirs for when the provider is down.
        </p>
      </div>
    </fieldset>
  );
}

/** The authenticator code that saves the change, or turns single sign-on off (`sso: null`). */
function SsoConfirmDialog({
  change,
  onClose,
  onDone,
}: {
  change: { sso: SsoInput } | null;
  onClose: () => void;
  onDone: (updated: Settings) => void;
}) {
  return (
    <CodeConfirmDialog
      subject={change}
      title={change?.sso ? "Save single sign-on" : "Turn off single sign-on"}
      confirmLabel={change?.sso ? "Save" : "Turn off"}
      pendingLabel="Saving…"
      danger={!change?.sso}
      onConfirm={(body, code) => api(updateSettingsEndpoint, { body, totpCode: code })}
      onClose={onClose}
      onDone={onDone}
    >
      {(current) =>
        current.sso
          ? `Employees will sign in through ${current.sso.issuer}${current.sso.enforced ? ", and only owners keep password sign-in" : ""}.`
          : "Employees will sign in with their passwords again."
      }
    </CodeConfirmDialog>
  );
}

function SsoIntro({ stored }: { stored: SsoSettings }) {
  const hydrated = useHydrated();
  return (
    <div>
      <h2 style={{ marginTop: 0 }}>Single sign-on</h2>
      <p className="muted" style={{ margin: 0 }}>
        Employees sign in through your company&apos;s OpenID Connect provider. Nobody new is created: the e-mail the
        provider asserts (and has verified) must belong to an active employee. Register this redirect URI with the
        provider:{" "}
        <code style={{ overflowWrap: "anywhere" }}>
          {hydrated ? `${window.location.origin}/v1/sso/callback` : "/v1/sso/callback"}
        </code>
      </p>
      <p style={{ marginBottom: 0 }}>
        Status:{" "}
        <span className={`badge ${stored ? "ok" : ""}`} data-testid="sso-state">
          {stored ? (stored.enforced ? "On, required" : "On") : "Off"}
        </span>
      </p>
    </div>
  );
}

/** Tries the issuer's discovery with what is typed now, before anything is saved. */
function TestIssuerButton({ issuer }: { issuer: () => string }) {
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const [testing, setTesting] = useState(false);
  const test = async () => {
    setTesting(true);
    setResult(null);
    try {
      const found = await api(ssoTestEndpoint, { body: { issuer: issuer() } });
      setResult({ ok: true, message: `Discovery works: ${found.issuer} signs with the keys at ${found.jwksUri}.` });
    } catch (error) {
      setResult({ ok: false, message: error instanceof Error ? error.message : String(error) });
    } finally {
      setTesting(false);
    }
  };
  return (
    <>
      <button type="button" onClick={() => void test()} disabled={testing}>
        {testing ? "Testing…" : "Test issuer"}
      </button>
      <div style={{ flexBasis: "100%" }} data-testid="sso-test-result">
        {result?.ok ? <Notice>{result.message}</Notice> : <ErrorMessage error={result?.message ?? null} />}
      </div>
    </>
  );
}
