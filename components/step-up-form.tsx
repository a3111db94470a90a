"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import type { QueryKey } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { FieldError, FieldValues, Path } from "react-hook-form";
import type { z } from "zod";
import { useMe } from "@/components/me";
import { TotpCodeField } from "@/components/totp-code-field";
import { PasskeyStepUpButton } from "@/components/passkeys/passkey-step-up-button";
import { ErrorMessage } from "@/components/ui/data-state";
import { Dialog } from "@/components/ui/dialog";
import { useApiForm, type ApiForm } from "@/components/use-api-form";
import { totpConfirmInput } from "@/lib/employees/schemas";

type Labels = {
  confirmLabel: string;
  pendingLabel: string;
  /** A red button for what cannot be undone or takes something away. */
  danger?: boolean;
};

/**
 * A form whose action needs an authenticator code (step-up, sent as Service-Totp-Code): its own
 * fields, then the code field (or a passkey, for who has one), the refusal no field claimed, and
 * Cancel beside the submit button.
 * The submit button waits for two-factor authentication to be set up.
 */
export function StepUpForm<I extends FieldValues & { code: string }, O>({
  apiForm,
  children,
  onCancel,
  confirmLabel,
  pendingLabel,
  danger = false,
}: Labels & { apiForm: ApiForm<I, O>; children: ReactNode; onCancel: () => void }) {
  const me = useMe();
  const { form, onSubmit, formError } = apiForm;
  const { errors, isSubmitting } = form.formState;
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      {children}
      <TotpCodeField registration={form.register("code" as Path<I>)} error={errors.code as FieldError | undefined} />
      {me.twoFactorEnabled && <PasskeyStepUpButton apiForm={apiForm} disabled={isSubmitting} />}
      <ErrorMessage error={formError} />
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className={danger ? "danger" : "primary"} disabled={!me.twoFactorEnabled || isSubmitting}>
          {isSubmitting ? pendingLabel : confirmLabel}
        </button>
      </div>
    </form>
  );
}

/** A dialog about one thing (a key, an employee, an endpoint): open while there is one, drawn for it. */
export function DialogFor<S>({
  subject,
  title,
  onClose,
  children,
}: {
  subject: S | null;
  title: string;
  onClose: () => void;
  children: (subject: S) => ReactNode;
}) {
  return (
    <Dialog open={subject !== null} onClose={onClose} title={title}>
      {subject !== null && children(subject)}
    </Dialog>
  );
}

type ConfirmProps<S, T> = Labels & {
  /** What the action is about; the dialog is open while there is one. */
  subject: S | null;
  title: string;
  /** What the action does, in a sentence. */
  children: (subject: S) => ReactNode;
  /** Runs the action with the authenticator code typed in (sent as Service-Totp-Code). */
  onConfirm: (subject: S, code: string) => Promise<T>;
  /** Queries the action changes, refreshed before `onDone`. */
  invalidates?: readonly QueryKey[];
  onClose: () => void;
  onDone: (result: T) => void;
};

/**
 * Asks before an action and takes the authenticator code it needs in the same dialog, as revoking
 * an API key does. The dialog stays open on a refusal, with the reason under the code field or
 * above the buttons (a conflict, such as the last active owner, as the API's sentence).
 */
export function CodeConfirmDialog<S, T>({ subject, title, onClose, children, ...form }: ConfirmProps<S, T>) {
  return (
    <DialogFor subject={subject} title={title} onClose={onClose}>
      {(current) => (
        <CodeConfirmForm subject={current} onClose={onClose} {...form}>
          {children(current)}
        </CodeConfirmForm>
      )}
    </DialogFor>
  );
}

function CodeConfirmForm<S, T>({
  subject,
  children,
  onConfirm,
  invalidates,
  onClose,
  onDone,
  ...labels
}: Omit<ConfirmProps<S, T>, "subject" | "title" | "children"> & { subject: S; children: ReactNode }) {
  const apiForm = useApiForm<z.input<typeof totpConfirmInput>, T, z.output<typeof totpConfirmInput>>({
    resolver: zodResolver(totpConfirmInput),
    defaultValues: { code: "" },
    submit: ({ code }) => onConfirm(subject, code),
    invalidates,
    onDone,
    fields: ["code"],
    conflict: "form",
  });
  return (
    <StepUpForm apiForm={apiForm} onCancel={onClose} {...labels}>
      <p style={{ margin: 0 }}>{children}</p>
    </StepUpForm>
  );
}
