"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import type { ReactNode } from "react";
import type { z } from "zod";
import { employeesQueryKey, type Employee } from "@/components/employees/use-employees";
import { StepUpForm } from "@/components/step-up-form";
import { Dialog, useDialogResult } from "@/components/ui/dialog";
import { DateTime } from "@/components/ui/format";
import { ShownOnce } from "@/components/ui/shown-once";
import { useApiForm } from "@/components/use-api-form";
import { api } from "@/lib/client/api";
import { createPasswordResetEndpoint, reissueInvitationEndpoint } from "@/lib/employees/endpoints";
import { totpConfirmInput } from "@/lib/employees/schemas";

/** A one-time link the API made for an employee: the link, until when it works, and whether it was e-mailed. */
type IssuedLink = { url: string; expiresAt: string; emailed?: boolean };

type LinkKind = {
  title: string;
  shownTitle: string;
  confirmLabel: string;
  pendingLabel: string;
  testId: string;
  /** What making the link does, in a sentence or two. */
  explain: (employee: Employee) => ReactNode;
  issue: (employee: Employee, code: string) => Promise<IssuedLink>;
  /** How long it works and what it is for. */
  use: string;
};

const kinds = {
  invitation: {
    title: "New invitation link",
    shownTitle: "New invitation link ready",
    confirmLabel: "Create link",
    pendingLabel: "Creating…",
    testId: "invitation-url",
    explain: (employee) => (
      <>
        Create a new invitation link for <strong>{employee.name}</strong> ({employee.email})? Their previous link stops
        working at once.
      </>
    ),
    issue: async (employee, code) => {
      const issued = await api(reissueInvitationEndpoint, { params: { id: employee.id }, totpCode: code });
      return { url: issued.invitationUrl, expiresAt: issued.invitationExpiresAt, emailed: issued.emailed };
    },
    use: "With it they choose their password and join.",
  },
  "password-reset": {
    title: "Create password reset link",
    shownTitle: "Password reset link ready",
    confirmLabel: "Create link",
    pendingLabel: "Creating…",
    testId: "password-reset-url",
    explain: (employee) => (
      <>
        Create a link with which <strong>{employee.name}</strong> ({employee.email}) sets a new password? When they use
        it, every session of theirs ends; their two-factor authentication stays as it is. Do this only when you are sure
        it is them asking.
      </>
    ),
    issue: async (employee, code) => {
      const issued = await api(createPasswordResetEndpoint, { params: { id: employee.id }, totpCode: code });
      return { url: issued.passwordResetUrl, expiresAt: issued.passwordResetExpiresAt, emailed: issued.emailed };
    },
    use: "With it they set a new password, then sign in.",
  },
} satisfies Record<string, LinkKind>;

export type LinkKindName = keyof typeof kinds;

/**
 * Makes a one-time link for an employee (a new invitation, a password reset) with an authenticator
 * code, then shows it this once: it stays until the admin ticks that they copied it.
 */
export function NewLinkDialog({
  kind,
  employee,
  onClose,
  onDone,
}: {
  kind: LinkKindName;
  employee: Employee | null;
  onClose: () => void;
  onDone: (notice: string) => void;
}) {
  const spec: LinkKind = kinds[kind];
  const [issued, setIssued, close] = useDialogResult<IssuedLink>(onClose);
  return (
    <Dialog open={employee !== null} onClose={close} title={issued ? spec.shownTitle : spec.title}>
      {employee &&
        (issued ? (
          <ShownOnce
            notice={<>The link for {employee.name} is ready.</>}
            value={issued.url}
            label={spec.title}
            testId={spec.testId}
            copyLabel="Copy link"
            savedLabel="I have copied the link"
            onDone={() => {
              close();
              onDone(`The link for ${employee.name} was created.`);
            }}
          >
            <LinkInstructions issued={issued} employee={employee} use={spec.use} />
          </ShownOnce>
        ) : (
          <IssueForm employee={employee} spec={spec} onCancel={close} onIssued={setIssued} />
        ))}
    </Dialog>
  );
}

function LinkInstructions({ issued, employee, use }: { issued: IssuedLink; employee: Employee; use: string }) {
  return (
    <>
      <p style={{ margin: 0 }}>
        {use} It works once, until <DateTime value={issued.expiresAt} />.{" "}
        <strong>Copy it now: you will not see it again.</strong>
      </p>
      <EmailedNotice emailed={issued.emailed} email={employee.email} />
    </>
  );
}

function IssueForm({
  employee,
  spec,
  onCancel,
  onIssued,
}: {
  employee: Employee;
  spec: LinkKind;
  onCancel: () => void;
  onIssued: (issued: IssuedLink) => void;
}) {
  const apiForm = useApiForm<z.input<typeof totpConfirmInput>, IssuedLink, z.output<typeof totpConfirmInput>>({
    resolver: zodResolver(totpConfirmInput),
    defaultValues: { code: "" },
    submit: ({ code }) => spec.issue(employee, code),
    invalidates: [employeesQueryKey],
    onDone: onIssued,
    fields: ["code"],
    conflict: "form",
  });
  return (
    <StepUpForm apiForm={apiForm} onCancel={onCancel} confirmLabel={spec.confirmLabel} pendingLabel={spec.pendingLabel}>
      <p style={{ margin: 0 }}>{spec.explain(employee)}</p>
    </StepUpForm>
  );
}

/** Whether a link shown once also went out by e-mail (`emailed`; absent: no mail server is set up). */
export function EmailedNotice({ emailed, email }: { emailed?: boolean; email: string }) {
  if (emailed === true)
    return (
      <p className="muted" style={{ margin: 0 }} data-testid="link-emailed">
        It was also e-mailed to {email}.
      </p>
    );
  if (emailed === false)
    return (
      <p className="alert warn" style={{ margin: 0 }} data-testid="link-not-emailed">
        It could not be e-mailed to {email}: send it to them yourself.
      </p>
    );
  return null;
}
