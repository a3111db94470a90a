"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { employeesQueryKey, type InvitedEmployee } from "@/components/employees/use-employees";
import { ErrorMessage } from "@/components/ui/data-state";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { CopyButton, DateTime } from "@/components/ui/format";
import { api, ApiRequestError, applyFieldErrors } from "@/lib/client/api";
import { inviteEmployeeInput } from "@/lib/employees/schemas";

/** Invites an employee by name and e-mail, then shows the invitation link to send them, this once. */
export function InviteEmployeeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [invited, setInvited] = useState<InvitedEmployee | null>(null);
  const close = () => {
    setInvited(null);
    onClose();
  };
  return (
    <Dialog open={open} onClose={close} title={invited ? "Invitation ready" : "Invite employee"}>
      {invited ? <InvitationLink invited={invited} onDone={close} /> : <InviteForm onInvited={setInvited} onCancel={close} />}
    </Dialog>
  );
}

type Input = z.input<typeof inviteEmployeeInput>;
type Output = z.output<typeof inviteEmployeeInput>;

function InviteForm({ onInvited, onCancel }: { onInvited: (employee: InvitedEmployee) => void; onCancel: () => void }) {
  const queryClient = useQueryClient();
  const form = useForm<Input, unknown, Output>({ resolver: zodResolver(inviteEmployeeInput), defaultValues: { name: "", email: "" } });
  const invite = useMutation({
    mutationFn: (values: Output) => api<InvitedEmployee>("/v1/employees", { method: "POST", body: values }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: employeesQueryKey }),
  });
  const [formError, setFormError] = useState<string | null>(null);
  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      onInvited(await invite.mutateAsync(values));
    } catch (error) {
      // Addresses are unique across the service: say so in a sentence, under the address.
      if (error instanceof ApiRequestError && error.status === 409) {
        form.setError("email", { type: "server", message: error.message }, { shouldFocus: true });
        return;
      }
      setFormError(applyFieldErrors(error, form.setError, ["name", "email"]));
    }
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <Field label="Name" autoComplete="off" error={errors.name} {...form.register("name")} />
      <Field label="E-mail" type="email" autoComplete="off" hint="They sign in with this address." error={errors.email} {...form.register("email")} />
      <ErrorMessage error={formError} />
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={isSubmitting}>
          {isSubmitting ? "Inviting…" : "Invite"}
        </button>
      </div>
    </form>
  );
}

function InvitationLink({ invited, onDone }: { invited: InvitedEmployee; onDone: () => void }) {
  return (
    <div className="stack">
      <div className="alert success" role="status">
        <strong>{invited.name}</strong> is invited.
      </div>
      <p style={{ margin: 0 }}>
        Send them this link. It works once, until <DateTime value={invited.invitationExpiresAt} />.{" "}
        <strong>Copy it now: you will not see it again.</strong>
      </p>
      <div className="secret-box" role="group" aria-label="Invitation link">
        <code data-testid="invitation-url">{invited.invitationUrl}</code>
        <CopyButton text={invited.invitationUrl} label="Copy link" />
      </div>
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
