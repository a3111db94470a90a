"use client";

import Link from "@/components/ui/link";
import { KeyPermissions } from "@/components/api-keys/key-permissions";
import { labelOf, statusOf, type ApiKey, type ApiKeyStatus } from "@/components/api-keys/use-api-keys";
import { DateTime, StatusBadge } from "@/components/ui/format";

export type KeyAction = "edit" | "roll" | "revoke";

/** One row of the API keys table; the Actions cell only for those who may write. */
export function ApiKeyRow({
  apiKey,
  creator,
  mayWrite,
  outranksMe,
  onAction,
}: {
  apiKey: ApiKey;
  creator: string | null;
  mayWrite: boolean;
  outranksMe: boolean;
  onAction: (action: KeyAction) => void;
}) {
  const status = statusOf(apiKey);
  return (
    <tr>
      <KeyCell apiKey={apiKey} status={status} />
      <AccessCell apiKey={apiKey} />
      <td data-label="Expires">
        <DateTime value={apiKey.expiresAt} day />
      </td>
      <ActivityCell apiKey={apiKey} creator={creator} />
      {mayWrite && (
        <td data-label="Actions">
          {status === "active" ? (
            <KeyActions apiKey={apiKey} outranksMe={outranksMe} onAction={onAction} />
          ) : (
            <span className="muted">—</span>
          )}
        </td>
      )}
    </tr>
  );
}

function KeyCell({ apiKey, status }: { apiKey: ApiKey; status: ApiKeyStatus }) {
  return (
    <td data-label="Key">
      <div className="api-key-name">
        <Link href={`/api-keys/${apiKey.id}`} aria-label={`${labelOf(apiKey)}: usage and details`}>
          {apiKey.name ?? "Unnamed key"}
        </Link>
      </div>
      <code className="nowrap">{apiKey.prefix}…</code>
      <div>
        <StatusBadge status={status} />
      </div>
      {apiKey.revokedAt && (
        <div className="muted small">
          since <DateTime value={apiKey.revokedAt} />
        </div>
      )}
      {apiKey.leak && <LeakNote url={apiKey.leak.url} />}
    </td>
  );
}

function AccessCell({ apiKey }: { apiKey: ApiKey }) {
  return (
    <td data-label="Access">
      <KeyPermissions permissions={apiKey.permissions} />
      <div className="api-key-addresses">
        {apiKey.cidrAllowlist.length === 0 ? (
          <span className="muted">From any address</span>
        ) : (
          <>
            <span className="muted">Only from</span>
            <ul className="mono plain-list">
              {apiKey.cidrAllowlist.map((range) => (
                <li key={range}>{range}</li>
              ))}
            </ul>
          </>
        )}
      </div>
    </td>
  );
}

function ActivityCell({ apiKey, creator }: { apiKey: ApiKey; creator: string | null }) {
  return (
    <td data-label="Activity">
      <div data-testid="key-created">
        <span className="muted">Created</span> <DateTime value={apiKey.createdAt} />
      </div>
      {creator && <div className="muted small">by {creator}</div>}
      <div data-testid="key-last-used">
        <span className="muted">Last used</span> <DateTime value={apiKey.lastUsedAt} fallback="never" />
      </div>
      {apiKey.lastUsedIp && <div className="muted small">from {apiKey.lastUsedIp}</div>}
    </td>
  );
}

/** An active key's buttons. One that outranks the caller offers only Revoke. */
function KeyActions({
  apiKey,
  outranksMe,
  onAction,
}: {
  apiKey: ApiKey;
  outranksMe: boolean;
  onAction: (action: KeyAction) => void;
}) {
  return (
    <div className="api-key-actions">
      {!outranksMe && (
        <>
          <button type="button" aria-label={`Edit allowlist of ${labelOf(apiKey)}`} onClick={() => onAction("edit")}>
            Edit allowlist
          </button>
          <button type="button" aria-label={`Roll ${labelOf(apiKey)}`} onClick={() => onAction("roll")}>
            Roll
          </button>
        </>
      )}
      <button type="button" aria-label={`Revoke ${labelOf(apiKey)}`} onClick={() => onAction("revoke")}>
        Revoke
      </button>
      {outranksMe && <span className="muted small">Beyond your role</span>}
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
