"use client";

import { useState } from "react";
import { EditAllowlistDialog } from "@/components/api-keys/edit-allowlist-dialog";
import { IssueKeyDialog } from "@/components/api-keys/issue-key-dialog";
import { RevokeKeyDialog } from "@/components/api-keys/revoke-key-dialog";
import { labelOf, statusOf, useApiKeys, type ApiKey } from "@/components/api-keys/use-api-keys";
import { DataState } from "@/components/ui/data-state";
import { DateTime, StatusBadge } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";

type Open = { dialog: "issue" } | { dialog: "edit"; key: ApiKey } | { dialog: "revoke"; key: ApiKey } | null;

/** The account's API keys, with issuing, allowlist editing and revoking (each needs an authenticator code). */
export function ApiKeysList() {
  const keys = useApiKeys();
  const [open, setOpen] = useState<Open>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const close = () => setOpen(null);
  const show = (next: Open) => {
    setNotice(null);
    setOpen(next);
  };

  return (
    <div className="stack">
      <PageHeader
        title="API keys"
        description="Keys let your systems call the API. Each expires within a year and can be limited to the addresses you trust."
        actions={
          <button type="button" className="primary" onClick={() => show({ dialog: "issue" })}>
            Issue key
          </button>
        }
      />
      {notice && (
        <div className="alert success" role="status">
          {notice}
        </div>
      )}
      <DataState
        query={keys}
        isEmpty={keys.data?.length === 0}
        empty="No API keys yet. Issue one to let your systems call the API."
      >
        <div className="table-wrap">
          <table>
            <caption className="muted" style={{ textAlign: "left", padding: "0.6rem 0.75rem" }}>
              {keys.data?.length === 1 ? "1 key" : `${keys.data?.length ?? 0} keys`}, newest first
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Status</th>
                <th scope="col">Expires</th>
                <th scope="col">Allowed addresses</th>
                <th scope="col">Last used</th>
                <th scope="col">Created</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {keys.data?.map((key) => {
                const status = statusOf(key);
                return (
                  <tr key={key.id}>
                    <td>{key.name ?? <span className="muted">Unnamed key</span>}</td>
                    <td>
                      <code style={{ whiteSpace: "nowrap" }}>{key.prefix}…</code>
                    </td>
                    <td>
                      <StatusBadge status={status} />
                    </td>
                    <td>
                      <DateTime value={key.expiresAt} />
                    </td>
                    <td>
                      {key.cidrAllowlist.length === 0 ? (
                        <span className="muted">Any address</span>
                      ) : (
                        <ul className="mono" style={{ margin: 0, padding: 0, listStyle: "none" }}>
                          {key.cidrAllowlist.map((range) => (
                            <li key={range}>{range}</li>
                          ))}
                        </ul>
                      )}
                    </td>
                    <td>
                      <DateTime value={key.lastUsedAt} fallback="Never" />
                    </td>
                    <td>
                      <DateTime value={key.createdAt} />
                    </td>
                    <td>
                      {status === "revoked" ? (
                        <span className="muted">
                          Revoked <DateTime value={key.revokedAt} />
                        </span>
                      ) : (
                        <div className="row" style={{ flexWrap: "nowrap", gap: "0.4rem", alignItems: "center", whiteSpace: "nowrap" }}>
                          <button type="button" aria-label={`Edit allowlist of ${labelOf(key)}`} onClick={() => show({ dialog: "edit", key })}>
                            Edit allowlist
                          </button>
                          <button type="button" aria-label={`Revoke ${labelOf(key)}`} onClick={() => show({ dialog: "revoke", key })}>
                            Revoke
                          </button>
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </DataState>

      <IssueKeyDialog open={open?.dialog === "issue"} onClose={close} />
      <EditAllowlistDialog
        apiKey={open?.dialog === "edit" ? open.key : null}
        onClose={close}
        onSaved={(key) => {
          close();
          setNotice(`Allowlist of ${labelOf(key)} saved.`);
        }}
      />
      <RevokeKeyDialog
        apiKey={open?.dialog === "revoke" ? open.key : null}
        onClose={close}
        onRevoked={(key) => {
          close();
          setNotice(`${labelOf(key)} is revoked.`);
        }}
      />
    </div>
  );
}
