"use client";

import Link from "@/components/ui/link";
import { ExpiringKeysBanner } from "@/components/api-keys/expiring-keys-banner";
import { EditAllowlistForm } from "@/components/api-keys/edit-allowlist-form";
import { IssueKeyDialog } from "@/components/api-keys/issue-key-dialog";
import { KeyPermissions } from "@/components/api-keys/key-permissions";
import { creatorLabel } from "@/components/api-keys/permissions";
import { RevokeKeyDialog } from "@/components/api-keys/revoke-key-dialog";
import { RollKeyDialog } from "@/components/api-keys/roll-key-dialog";
import { labelOf, statusOf, useApiKeys, useEmployeeNames, type ApiKey } from "@/components/api-keys/use-api-keys";
import { DataTable } from "@/components/ui/data-table";
import { useCan, useMe } from "@/components/me";
import { DialogFor } from "@/components/step-up-form";
import { Notice, usePageDialogs } from "@/components/ui/use-page-dialogs";
import { DataState } from "@/components/ui/data-state";
import { DateTime, StatusBadge } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { ReadOnlyNote } from "@/components/ui/read-only-note";

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

  return (
    <div className="stack">
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
            <button type="button" className="primary" onClick={() => show({ dialog: "issue" })}>
              Issue key
            </button>
          )
        }
      />
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
      <DataState
        query={keys}
        isEmpty={keys.data?.length === 0}
        empty={
          mayWrite ? (
            <>
              No API keys yet.{" "}
              <button type="button" className="link" onClick={() => show({ dialog: "issue" })}>
                Issue one
              </button>{" "}
              to let your systems call the API (see the <Link href="/docs">API reference</Link>).
            </>
          ) : (
            <>
              No API keys yet. Someone allowed to issue keys adds them; the <Link href="/docs">API reference</Link>{" "}
              tells how they are used.
            </>
          )
        }
      >
        <DataTable
          label="API keys"
          className="api-keys-table"
          caption={<>{keys.data?.length === 1 ? "1 key" : `${keys.data?.length ?? 0} keys`}, newest first</>}
          columns={["Key", "Access", "Expires", "Activity", mayWrite && "Actions"]}
        >
          {keys.data?.map((key) => {
            const status = statusOf(key);
            const creator = creatorLabel(key.createdBy, {
              meId: me.id,
              employees: employeeNames,
              keys: keys.data ?? [],
            });
            const outranksMe = outranks(key);
            return (
              <tr key={key.id}>
                <td data-label="Key">
                  <div className="api-key-name">
                    <Link href={`/api-keys/${key.id}`} aria-label={`${labelOf(key)}: usage and details`}>
                      {key.name ?? "Unnamed key"}
                    </Link>
                  </div>
                  <code className="nowrap">{key.prefix}…</code>
                  <div>
                    <StatusBadge status={status} />
                  </div>
                  {key.revokedAt && (
                    <div className="muted small">
                      since <DateTime value={key.revokedAt} />
                    </div>
                  )}
                  {key.leak && <LeakNote url={key.leak.url} />}
                </td>
                <td data-label="Access">
                  <KeyPermissions permissions={key.permissions} />
                  <div className="api-key-addresses">
                    {key.cidrAllowlist.length === 0 ? (
                      <span className="muted">From any address</span>
                    ) : (
                      <>
                        <span className="muted">Only from</span>
                        <ul className="mono plain-list">
                          {key.cidrAllowlist.map((range) => (
                            <li key={range}>{range}</li>
                          ))}
                        </ul>
                      </>
                    )}
                  </div>
                </td>
                <td data-label="Expires">
                  <DateTime value={key.expiresAt} day />
                </td>
                <td data-label="Activity">
                  <div data-testid="key-created">
                    <span className="muted">Created</span> <DateTime value={key.createdAt} />
                  </div>
                  {creator && <div className="muted small">by {creator}</div>}
                  <div data-testid="key-last-used">
                    <span className="muted">Last used</span> <DateTime value={key.lastUsedAt} fallback="never" />
                  </div>
                  {key.lastUsedIp && <div className="muted small">from {key.lastUsedIp}</div>}
                </td>
                {mayWrite && (
                  <td data-label="Actions">
                    {status === "active" ? (
                      <div className="api-key-actions">
                        {!outranksMe && (
                          <>
                            <button
                              type="button"
                              aria-label={`Edit allowlist of ${labelOf(key)}`}
                              onClick={() => show({ dialog: "edit", key })}
                            >
                              Edit allowlist
                            </button>
                            <button
                              type="button"
                              aria-label={`Roll ${labelOf(key)}`}
                              onClick={() => show({ dialog: "roll", key })}
                            >
                              Roll
                            </button>
                          </>
                        )}
                        <button
                          type="button"
                          aria-label={`Revoke ${labelOf(key)}`}
                          onClick={() => show({ dialog: "revoke", key })}
                        >
                          Revoke
                        </button>
                        {outranksMe && <span className="muted small">Beyond your role</span>}
                      </div>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                )}
              </tr>
            );
          })}
        </DataTable>
      </DataState>

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
    </div>
  );
}

/** Why a key was revoked when a secret-scanning report found it: where. A link only for a web address. */
function LeakNote({ url }: { url: string }) {
  const linked = /^https?:\/\//i.test(url);
  return (
    <div className="small api-key-leak">
      revoked: found public at{" "}
      {linked ? (
        <a href={url} target="_blank" rel="noreferrer noopener">
          {url}
        </a>
      ) : (
        <span>{url}</span>
      )}
    </div>
  );
}
