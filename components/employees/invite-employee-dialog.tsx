"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { RolePicker } from "@/components/employees/role-picker";
import { grantableRoles, ROLE_LABELS } from "@/components/employees/roles";
import { showStepUpError } from "@/components/employees/show-step-up-error";
import { employeesQueryKey, type InvitedEmployee } from "@/components/employees/use-employees";
import { useCan, useMe } from "@/components/me";
import { TotpCodeField } from "@/components/totp-code-field";
import { ErrorMessage } from "@/components/ui/data-state";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { CopyButton, DateTime } from "@/components/ui/format";
import { api, ApiRequestError } from "@/lib/client/api";
import { inviteEmployeeInput, totpCodeSchema } from "@/lib/employees/schemas";

/**
 * Invites an employee by name, e-mail and role (with an authenticator code: inviting grants access),
 * then shows the invitation link to send them, this once.
 */
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

const inviteForm = inviteEmployeeInput.extend({ code: totpCodeSchema });
type Input = z.input<typeof inviteForm>;
type Output = z.output<typeof inviteForm>;

function InviteForm({ onInvited, onCancel }: { onInvited: (employee: InvitedEmployee) => void; onCancel: () => void }) {
  const me = useMe();
  const roles = grantableRoles(useCan());
  const queryClient = useQueryClient();
  const form = useForm<Input, unknown, Output>({ resolver: zodResolver(inviteForm), defaultValues: { name: "", email: "", role: "viewer", code: "" } });
  const invite = useMutation({
    mutationFn: ({ code, ...body }: Output) => api<InvitedEmployee>("/v1/employees", { method: "POST", body, totpCode: code }),
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
      setFormError(showStepUpError(error, form.setError, ["name", "email", "role", "code"]));
    }
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <Field label="Name" autoComplete="off" error={errors.name} {...form.register("name")} />
      <Field label="E-mail" type="email" autoComplete="off" hint="They sign in with this address." error={errors.email} {...form.register("email")} />
      {roles.length > 1 ? (
        <RolePicker roles={roles} registration={form.register("role")} error={errors.role} hint="What they may do once they join. You can change it later." />
      ) : (
        <p className="muted" style={{ margin: 0 }}>
          They join as <strong>{ROLE_LABELS.viewer}</strong>: they can read everything and change nothing.
        </p>
      )}
      <TotpCodeField registration={form.register("code")} error={errors.code} />
      <ErrorMessage error={formError} />
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={!me.twoFactorEnabled || isSubmitting}>
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
        <strong>{invited.name}</strong> is invited as {ROLE_LABELS[invited.role]}.
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
