"use client";

import Link from "@/components/ui/link";
import { ExpiringKeysBanner } from "@/components/api-keys/expiring-keys-banner";
import { EditAllowlistForm } from "@/components/api-keys/edit-allowlist-form";
import { IssueKeyDialog } from "@/components/api-keys/issue-key-dialog";
import { creatorLabel } from "@/components/api-keys/permissions";
import { RevokeKeyDialog } from "@/components/api-keys/revoke-key-dialog";
import { RollKeyDialog } from "@/components/api-keys/roll-key-dialog";
import { labelOf, statusOf, useApiKeys, useEmployeeNames, type ApiKey } from "@/components/api-keys/use-api-keys";
import { DataTable } from "@/components/ui/data-table";
import { useCan, useMe } from "@/components/me";
import { DialogFor } from "@/components/step-up-form";
import { Notice, usePageDialogs } from "@/components/ui/use-page-dialogs";
import { DataState } from "@/components/ui/data-state";
import { PageHeader } from "@/components/ui/page-header";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import { ApiKeyRow } from "./api-key-row";

type Open = { dialog: "issue" } | { dialog: "edit" | "roll" | "revoke"; key: ApiKey };

/** The account's API keys, with issuing, allowlist editing, rolling and revoking (each needs an authenticator code). */
export function ApiKeysList() {
  const me = useMe();
  const can = useCan();
  const mayWrite = can("api_keys:write");
  const keys = useApiKeys();
  const employeeNames = useEmployeeNames(can("employees:read"));
  const { open, notice, show, close, done } = usePageDialogs<Open>();
  // The API refuses changing or rolling a key that holds more than the caller: such keys offer only Revoke.
  const outranks = (key: ApiKey) => key.permissions.some((permission) => !can(permission));
  const anyOutranks = mayWrite && (keys.data ?? []).some((key) => statusOf(key) === "active" && outranks(key));
  const issue = () => show({ dialog: "issue" });

  return (
    <div className="stack">
      <ApiKeysHeader mayWrite={mayWrite} onIssue={issue} />
      <ExpiringKeysBanner />
      {!mayWrite && can("api_keys:read") && (
        <ReadOnlyNote>Your role can see API keys but not issue, roll or revoke them.</ReadOnlyNote>
      )}
      <Notice>{notice}</Notice>
      {anyOutranks && (
        <p className="muted" style={{ margin: 0 }}>
          Keys marked “Beyond your role” hold permissions your role lacks: you can revoke them, but only someone holding
          all their permissions can edit or roll them.
        </p>
      )}
      <DataState query={keys} isEmpty={keys.data?.length === 0} empty={<NoKeys mayWrite={mayWrite} onIssue={issue} />}>
        <DataTable
          label="API keys"
          className="api-keys-table"
          caption={<>{keys.data?.length === 1 ? "1 key" : `${keys.data?.length ?? 0} keys`}, newest first</>}
          columns={["Key", "Access", "Expires", "Activity", mayWrite && "Actions"]}
        >
          {keys.data?.map((key) => (
            <ApiKeyRow
              key={key.id}
              apiKey={key}
              creator={creatorLabel(key.createdBy, { meId: me.id, employees: employeeNames, keys: keys.data ?? [] })}
              mayWrite={mayWrite}
              outranksMe={outranks(key)}
              onAction={(dialog) => show({ dialog, key })}
            />
          ))}
        </DataTable>
      </DataState>

      <ApiKeysDialogs open={open} close={close} done={done} />
    </div>
  );
}

function ApiKeysHeader({ mayWrite, onIssue }: { mayWrite: boolean; onIssue: () => void }) {
  return (
    <PageHeader
      title="API keys"
      description={
        <>
          Keys let your systems call the API. Each expires within a year, does only what its permissions allow and can
          be limited to the addresses you trust. What a key can call: the <Link href="/docs">API reference</Link>.
        </>
      }
      actions={
        mayWrite && (
          <button type="button" className="primary" onClick={onIssue}>
            Issue key
          </button>
        )
      }
    />
  );
}

function NoKeys({ mayWrite, onIssue }: { mayWrite: boolean; onIssue: () => void }) {
  return mayWrite ? (
    <>
      No API keys yet.{" "}
      <button type="button" className="link" onClick={onIssue}>
        Issue one
      </button>{" "}
      to let your systems call the API (see the <Link href="/docs">API reference</Link>).
    </>
  ) : (
    <>
      No API keys yet. Someone allowed to issue keys adds them; the <Link href="/docs">API reference</Link> tells how
      they are used.
    </>
  );
}

function ApiKeysDialogs({
  open,
  close,
  done,
}: {
  open: Open | null;
  close: () => void;
  done: (message: string) => void;
}) {
  return (
    <>
      <IssueKeyDialog open={open?.dialog === "issue"} onClose={close} />
      <DialogFor subject={open?.dialog === "edit" ? open.key : null} onClose={close} title="Edit allowlist">
        {(key) => (
          <EditAllowlistForm
            apiKey={key}
            onCancel={close}
            onSaved={(saved) => done(`Allowlist of ${labelOf(saved)} saved.`)}
          />
        )}
      </DialogFor>
      <RollKeyDialog apiKey={open?.dialog === "roll" ? open.key : null} onClose={close} />
      <RevokeKeyDialog
        apiKey={open?.dialog === "revoke" ? open.key : null}
        onClose={close}
        onRevoked={(key) => done(`${labelOf(key)} is revoked.`)}
      />
    </>
  );
}
