"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { useState } from "react";
import { z } from "zod";
import { useMe } from "@/components/me";
import { CodeConfirmDialog, StepUpForm } from "@/components/step-up-form";
import { DataTable } from "@/components/ui/data-table";
import { DataState } from "@/components/ui/data-state";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { DateTime } from "@/components/ui/format";
import { Notice } from "@/components/ui/use-page-dialogs";
import { useApiForm } from "@/components/use-api-form";
import { api } from "@/lib/client/api";
import { queryKey } from "@/lib/client/query-keys";
import { useApiQuery } from "@/lib/client/queries";
import type { ResponseOf } from "@/lib/contract/endpoint";
import { totpCodeSchema } from "@/lib/employees/schemas";
import {
  listPasskeysEndpoint,
  passkeyRegistrationOptionsEndpoint,
  registerPasskeyEndpoint,
  removePasskeyEndpoint,
} from "@/lib/passkeys/endpoints";
import { passkeyNameSchema } from "@/lib/passkeys/schemas";

type Passkey = ResponseOf<typeof registerPasskeyEndpoint>;
const passkeysKey = queryKey(listPasskeysEndpoint);

/**
 * The signed-in employee's passkeys (Security page): names, when added and last used; adding one
 * (a fresh challenge, the browser's ceremony, then the step-up) and removing one (step-up).
 */
export function PasskeysSection() {
  const me = useMe();
  const passkeys = useApiQuery(listPasskeysEndpoint);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <section className="card stack" aria-labelledby="passkeys-heading">
      <PasskeysHeading
        canAdd={me.twoFactorEnabled}
        onAdd={() => {
          setNotice(null);
          setAdding(true);
        }}
      />
      {!me.twoFactorEnabled && (
        <p className="muted" style={{ margin: 0 }}>
          Set up two-factor authentication first: adding a passkey asks for a code.
        </p>
      )}
      <Notice>{notice}</Notice>
      <DataState query={passkeys} isEmpty={passkeys.data?.length === 0} empty="No passkeys yet.">
        <PasskeyTable passkeys={passkeys.data ?? []} onRemove={setRemoving} />
      </DataState>
      <Dialog open={adding} onClose={() => setAdding(false)} title="Add a passkey">
        {adding && (
          <AddPasskeyForm
            onCancel={() => setAdding(false)}
            onAdded={(passkey) => {
              setAdding(false);
              setNotice(`Passkey “${passkey.name}” added.`);
            }}
          />
        )}
      </Dialog>
      <RemovePasskeyDialog
        passkey={removing}
        onClose={() => setRemoving(null)}
        onRemoved={(passkey) => {
          setRemoving(null);
          setNotice(`Passkey “${passkey.name}” removed.`);
        }}
      />
    </section>
  );
}

/** The section's title and what a passkey is for, with Add (which needs two-factor authentication set up). */
function PasskeysHeading({ canAdd, onAdd }: { canAdd: boolean; onAdd: () => void }) {
  return (
    <div className="row" style={{ justifyContent: "space-between", alignItems: "center" }}>
      <div className="stack" style={{ gap: "0.25rem", flex: "1 1 20rem" }}>
        <h2 id="passkeys-heading" style={{ margin: 0 }}>
          Passkeys
        </h2>
        <p className="muted" style={{ margin: 0 }}>
          A passkey (your device&apos;s fingerprint, face or PIN, or a security key) can replace the authenticator code
          after your password, and in every dialog that asks for one. It cannot be phished.
        </p>
      </div>
      <button type="button" disabled={!canAdd} onClick={onAdd}>
        Add a passkey
      </button>
    </div>
  );
}

function PasskeyTable({ passkeys, onRemove }: { passkeys: readonly Passkey[]; onRemove: (passkey: Passkey) => void }) {
  return (
    <DataTable
      label="Your passkeys"
      columns={[
        "Name",
        "Added",
        "Last used",
        <span key="actions" className="visually-hidden">
          Actions
        </span>,
      ]}
    >
      {passkeys.map((passkey) => (
        <tr key={passkey.id}>
          <td data-label="Name">{passkey.name}</td>
          <td data-label="Added">
            <DateTime value={passkey.createdAt} />
          </td>
          <td data-label="Last used">
            {passkey.lastUsedAt ? <DateTime value={passkey.lastUsedAt} /> : <span className="muted">Never</span>}
          </td>
          <td data-label="Actions" className="num">
            <button type="button" aria-label={`Remove the passkey ${passkey.name}`} onClick={() => onRemove(passkey)}>
              Remove
            </button>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

/** Removes a passkey (DELETE) after the step-up; it stops working at once. */
function RemovePasskeyDialog({
  passkey,
  onClose,
  onRemoved,
}: {
  passkey: Passkey | null;
  onClose: () => void;
  onRemoved: (passkey: Passkey) => void;
}) {
  return (
    <CodeConfirmDialog
      subject={passkey}
      title="Remove passkey"
      confirmLabel="Remove passkey"
      pendingLabel="Removing…"
      danger
      onConfirm={(passkey, code) => api(removePasskeyEndpoint, { params: { id: passkey.id }, totpCode: code })}
      invalidates={[passkeysKey]}
      onClose={onClose}
      onDone={onRemoved}
    >
      {(passkey) => (
        <>
          Remove <strong>{passkey.name}</strong>? It stops working for sign-in and step-up at once.
        </>
      )}
    </CodeConfirmDialog>
  );
}

const addPasskeyForm = z.object({ name: passkeyNameSchema, code: totpCodeSchema });

/** A name, then the browser's ceremony for a fresh challenge, sent with the step-up. */
function AddPasskeyForm({ onCancel, onAdded }: { onCancel: () => void; onAdded: (passkey: Passkey) => void }) {
  const apiForm = useApiForm<z.input<typeof addPasskeyForm>, Passkey, z.output<typeof addPasskeyForm>>({
    resolver: zodResolver(addPasskeyForm),
    defaultValues: { name: "", code: "" },
    submit: async ({ name, code }) => {
      // The API's schema names hints and transports as plain strings; the browser library names each one.
      const optionsJSON = (await api(passkeyRegistrationOptionsEndpoint)) as PublicKeyCredentialCreationOptionsJSON;
      const response = await startRegistration({ optionsJSON });
      return api(registerPasskeyEndpoint, { body: { name, response }, totpCode: code });
    },
    invalidates: [passkeysKey],
    onDone: onAdded,
    fields: ["name", "code"],
    conflict: "form",
  });
  const { form } = apiForm;
  return (
    <StepUpForm
      apiForm={apiForm}
      onCancel={onCancel}
      confirmLabel="Add passkey"
      pendingLabel="Waiting for your passkey…"
    >
      <Field
        label="Name"
        hint="What you will recognise it by: “Work laptop”, “YubiKey”."
        autoFocus
        error={form.formState.errors.name}
        {...form.register("name")}
      />
    </StepUpForm>
  );
}
