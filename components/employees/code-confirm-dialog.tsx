"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { showStepUpError } from "@/components/employees/show-step-up-error";
import { useMe } from "@/components/me";
import { TotpCodeField } from "@/components/totp-code-field";
import { ErrorMessage } from "@/components/ui/data-state";
import { Dialog } from "@/components/ui/dialog";
import { totpConfirmInput } from "@/lib/employees/schemas";

type Props<T> = {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  /** Runs the action with the authenticator code typed in (sent as Service-Totp-Code). */
  onConfirm: (code: string) => Promise<T>;
  onClose: () => void;
  onDone: (result: T) => void;
};

/**
 * Asks before an action that cannot be undone and takes the authenticator code it needs (step-up)
 * in the same dialog, as revoking an API key does. The dialog stays open on a refusal, with the
 * reason under the code field or above the buttons.
 */
export function CodeConfirmDialog<T>({ open, title, onClose, ...form }: Props<T>) {
  return (
    <Dialog open={open} onClose={onClose} title={title}>
      {open && <CodeConfirmForm onClose={onClose} {...form} />}
    </Dialog>
  );
}

function CodeConfirmForm<T>({ children, confirmLabel, pendingLabel, onConfirm, onClose, onDone }: Omit<Props<T>, "open" | "title">) {
  const me = useMe();
  const form = useForm<z.input<typeof totpConfirmInput>, unknown, z.output<typeof totpConfirmInput>>({
    resolver: zodResolver(totpConfirmInput),
    defaultValues: { code: "" },
  });
  const [formError, setFormError] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async ({ code }) => {
    setFormError(null);
    try {
      onDone(await onConfirm(code));
    } catch (error) {
      setFormError(showStepUpError(error, form.setError, ["code"]));
    }
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <p style={{ margin: 0 }}>{children}</p>
      <TotpCodeField registration={form.register("code")} error={errors.code} />
      <ErrorMessage error={formError} />
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="danger" disabled={!me.twoFactorEnabled || isSubmitting}>
          {isSubmitting ? pendingLabel : confirmLabel}
        </button>
      </div>
    </form>
  );
}
