"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import type { z } from "zod";
import { StepUpForm } from "@/components/step-up-form";
import { Dialog } from "@/components/ui/dialog";
import { SavedThenDone } from "@/components/ui/shown-once";
import { useApiForm } from "@/components/use-api-form";
import { Notice } from "@/components/ui/use-page-dialogs";
import { api } from "@/lib/client/api";
import { regenerateRecoveryCodesEndpoint } from "@/lib/employees/endpoints";
import { totpConfirmInput } from "@/lib/employees/schemas";
import type { ResponseOf } from "@/lib/contract/endpoint";
import { RecoveryCodeList } from "./recovery-code-list";

type RecoveryCodesBody = ResponseOf<typeof regenerateRecoveryCodesEndpoint>;

/**
 * A new set of recovery codes (POST /v1/employees/totp/recovery_codes, step-up): the dialog asks
 * for an authenticator code, then shows the new codes this once.
 */
export function RecoveryCodes() {
  const [open, setOpen] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [replaced, setReplaced] = useState(false);
  const close = () => {
    if (codes) setReplaced(true);
    setCodes(null);
    setOpen(false);
  };
  return (
    <section className="card stack" aria-labelledby="recovery-codes-heading">
      <div className="stack" style={{ gap: "0.25rem" }}>
        <h2 id="recovery-codes-heading" style={{ margin: 0 }}>
          Recovery codes
        </h2>
        <p className="muted" style={{ margin: 0 }}>
          Each recovery code signs you in once when your phone is not at hand. Lost them, or used several? Generate a
          new set: the old one stops working at once.
        </p>
      </div>
      {replaced && <Notice>New recovery codes are in use; the previous ones no longer work.</Notice>}
      <div>
        <button
          type="button"
          onClick={() => {
            setReplaced(false);
            setOpen(true);
          }}
        >
          Generate new recovery codes
        </button>
      </div>
      <Dialog open={open} onClose={close} title={codes ? "Your new recovery codes" : "Generate new recovery codes"}>
        {codes ? <NewCodes codes={codes} onDone={close} /> : <GenerateForm onCancel={close} onGenerated={setCodes} />}
      </Dialog>
    </section>
  );
}

function GenerateForm({ onCancel, onGenerated }: { onCancel: () => void; onGenerated: (codes: string[]) => void }) {
  const apiForm = useApiForm<z.input<typeof totpConfirmInput>, RecoveryCodesBody, z.output<typeof totpConfirmInput>>({
    resolver: zodResolver(totpConfirmInput),
    defaultValues: { code: "" },
    submit: ({ code }) => api(regenerateRecoveryCodesEndpoint, { totpCode: code }),
    onDone: (result) => onGenerated(result.recoveryCodes),
    fields: ["code"],
  });
  return (
    <StepUpForm apiForm={apiForm} onCancel={onCancel} confirmLabel="Generate codes" pendingLabel="Generating…">
      <p style={{ margin: 0 }}>Your current recovery codes stop working as soon as the new ones are made.</p>
    </StepUpForm>
  );
}

function NewCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="stack">
      <p className="alert warn" role="status" style={{ margin: 0 }}>
        <strong>Your old recovery codes no longer work.</strong> Save these ten now, somewhere other than your phone:
        this is the only time they are shown.
      </p>
      <RecoveryCodeList codes={codes} label="New recovery codes" />
      <SavedThenDone label="I have saved these codes" onDone={onDone} />
    </div>
  );
}
