"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { RolePicker } from "@/components/employees/role-picker";
import { grantableRoles, ROLE_LABELS } from "@/components/employees/roles";
import { employeesQueryKey, type InvitedEmployee } from "@/components/employees/use-employees";
import { useCan } from "@/components/me";
import { ShownOnce } from "@/components/ui/shown-once";
import { StepUpForm } from "@/components/step-up-form";
import { Dialog, useDialogResult } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { DateTime } from "@/components/ui/format";
import { useApiForm } from "@/components/use-api-form";
import { api } from "@/lib/client/api";
import { inviteEmployeeEndpoint } from "@/lib/employees/endpoints";
import { EmailedNotice } from "@/components/employees/new-link-dialog";
import { inviteEmployeeInput, totpCodeSchema } from "@/lib/employees/schemas";

/**
 * Invites an employee by name, e-mail and role (with an authenticator code: inviting grants access),
 * then shows the invitation link to send them, this once.
 */
export function InviteEmployeeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [invited, setInvited, close] = useDialogResult<InvitedEmployee>(onClose);
  return (
    <Dialog open={open} onClose={close} title={invited ? "Invitation ready" : "Invite employee"}>
      {invited ? (
        <InvitationLink invited={invited} onDone={close} />
      ) : (
        <InviteForm onInvited={setInvited} onCancel={close} />
      )}
    </Dialog>
  );
}

const inviteForm = inviteEmployeeInput.extend({ code: totpCodeSchema });
type Input = z.input<typeof inviteForm>;
type Output = z.output<typeof inviteForm>;

function InviteForm({ onInvited, onCancel }: { onInvited: (employee: InvitedEmployee) => void; onCancel: () => void }) {
  const roles = grantableRoles(useCan());
  const apiForm = useApiForm<Input, InvitedEmployee, Output>({
    resolver: zodResolver(inviteForm),
    defaultValues: { name: "", email: "", role: "viewer", code: "" },
    submit: ({ code, ...body }) => api(inviteEmployeeEndpoint, { body, totpCode: code }),
    invalidates: [employeesQueryKey],
    onDone: onInvited,
    fields: ["name", "email", "role", "code"],
    // Addresses are unique across the service: say so in a sentence, under the address.
    conflict: "email",
  });
  const { form } = apiForm;
  const { errors } = form.formState;
  return (
    <StepUpForm apiForm={apiForm} onCancel={onCancel} confirmLabel="Invite" pendingLabel="Inviting…">
      <Field label="Name" autoComplete="off" error={errors.name} {...form.register("name")} />
      <Field
        label="E-mail"
        type="email"
        autoComplete="off"
        hint="They sign in with this address."
        error={errors.email}
        {...form.register("email")}
      />
      {roles.length > 1 ? (
        <RolePicker
          roles={roles}
          registration={form.register("role")}
          error={errors.role}
          hint="What they may do once they join. You can change it later."
        />
      ) : (
        <p className="muted" style={{ margin: 0 }}>
          They join as <strong>{ROLE_LABELS.viewer}</strong>: they can read everything and change nothing.
        </p>
      )}
    </StepUpForm>
  );
}

function InvitationLink({ invited, onDone }: { invited: InvitedEmployee; onDone: () => void }) {
  return (
    <ShownOnce
      notice={
        <>
          <strong>{invited.name}</strong> is invited as {ROLE_LABELS[invited.role]}.
        </>
      }
      value={invited.invitationUrl}
      label="Invitation link"
      testId="invitation-url"
      copyLabel="Copy link"
      savedLabel="I have copied the link"
      onDone={onDone}
    >
      <p style={{ margin: 0 }}>
        Send them this link. It works once, until <DateTime value={invited.invitationExpiresAt} />.{" "}
        <strong>Copy it now: you will not see it again.</strong>
      </p>
      <EmailedNotice emailed={invited.emailed} email={invited.email} />
    </ShownOnce>
  );
}
