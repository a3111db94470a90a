"use client";

import { EditRateLimitForm } from "@/components/api-keys/edit-rate-limit-form";
import { KeyPermissions } from "@/components/api-keys/key-permissions";
import { KeyRateLimit, usePlatformKeyRateLimit } from "@/components/api-keys/key-rate-limit";
import { KeyUsageChart } from "@/components/api-keys/key-usage-chart";
import { labelOf, statusOf, useApiKeys, type ApiKey } from "@/components/api-keys/use-api-keys";
import { DetailPage } from "@/components/ui/detail-page";
import { DetailsList, Section } from "@/components/ui/details-list";
import { DateTime, StatusBadge } from "@/components/ui/format";
import { Notice, usePageDialogs } from "@/components/ui/use-page-dialogs";
import { useCan } from "@/components/me";
import { DialogFor } from "@/components/step-up-form";
import type { RateLimit } from "@/lib/api-keys/schemas";

/** One API key: what it may do, when and from where it was last used, and its requests over the last 30 days. */
export function ApiKeyDetailView({ id }: { id: string }) {
  const keys = useApiKeys();
  const key = keys.data?.find((candidate) => candidate.id === id);
  // The account's key list holds every key (there is no read of one key); one not in it is not found.
  const missing = keys.data !== undefined && key === undefined;
  const query = { ...keys, data: key, error: missing ? new Error("not found") : keys.error };
  return (
    <DetailPage
      id={id}
      query={query}
      title={(found) => (found ? labelOf(found) : missing ? "API key not found" : "API key")}
      back={{ href: "/api-keys", label: "All API keys" }}
    >
      {(found) => <KeyView apiKey={found} />}
    </DetailPage>
  );
}

function KeyView({ apiKey }: { apiKey: ApiKey }) {
  const can = useCan();
  const platformDefault = usePlatformKeyRateLimit();
  const { open, notice, show, close, done } = usePageDialogs<ApiKey>();
  // As on the list: the API refuses changing a key that holds more than the caller, or one no longer active.
  const mayChange =
    can("api_keys:write") && statusOf(apiKey) === "active" && apiKey.permissions.every((permission) => can(permission));
  return (
    <>
      <Notice>{notice}</Notice>
      <Section id="key-details-heading" title="Details" className="card">
        <DetailsList
          items={[
            { term: "Status", value: <StatusBadge status={statusOf(apiKey)} /> },
            { term: "Prefix", value: <code>{apiKey.prefix}…</code> },
            { term: "Permissions", value: <KeyPermissions permissions={apiKey.permissions} /> },
            {
              term: "Allowed from",
              value: apiKey.cidrAllowlist.length ? apiKey.cidrAllowlist.join(", ") : "Any address",
            },
            { term: "Expires", value: <DateTime value={apiKey.expiresAt} day /> },
            {
              term: "Rate limit",
              value: (
                <RateLimitValue
                  apiKey={apiKey}
                  platformDefault={platformDefault}
                  onChange={mayChange ? () => show(apiKey) : undefined}
                />
              ),
            },
          ]}
        />
      </Section>
      <DialogFor subject={open} onClose={close} title="Change rate limit">
        {(key) => (
          <EditRateLimitForm
            apiKey={key}
            platformDefault={platformDefault}
            onCancel={close}
            onSaved={(saved) => done(`Rate limit of ${labelOf(saved)} saved.`)}
          />
        )}
      </DialogFor>
      <LastUseSection apiKey={apiKey} />
      <Section id="key-usage-heading" title="Requests in the last 30 days" className="card stack">
        <p className="muted small" style={{ margin: 0 }}>
          Per UTC day, by outcome; the last few seconds may not show yet.
        </p>
        <KeyUsageChart keyId={apiKey.id} />
      </Section>
    </>
  );
}

function RateLimitValue({
  apiKey,
  platformDefault,
  onChange,
}: {
  apiKey: ApiKey;
  platformDefault: RateLimit | undefined;
  /** Absent when the caller may not change this key's limit. */
  onChange?: () => void;
}) {
  return (
    <span className="key-rate-limit">
      <span data-testid="key-rate-limit">
        <KeyRateLimit apiKey={apiKey} platformDefault={platformDefault} />
      </span>
      {onChange && (
        <button type="button" className="link" onClick={onChange}>
          Change rate limit
        </button>
      )}
    </span>
  );
}

function LastUseSection({ apiKey }: { apiKey: ApiKey }) {
  return (
    <Section id="key-last-use-heading" title="Last used" className="card">
      <p className="muted small" style={{ marginTop: 0 }}>
        Recorded at most once a minute.
      </p>
      <DetailsList
        items={[
          {
            term: "When",
            value: <DateTime value={apiKey.lastUsedAt} fallback="never" />,
            testId: "key-last-used-at",
          },
          {
            term: "From IP",
            value: apiKey.lastUsedIp ? <code>{apiKey.lastUsedIp}</code> : <span className="muted">—</span>,
            testId: "key-last-used-ip",
          },
          {
            term: "User agent",
            value: apiKey.lastUsedUserAgent ? (
              <code className="usage-user-agent">{apiKey.lastUsedUserAgent}</code>
            ) : (
              <span className="muted">—</span>
            ),
            testId: "key-last-used-user-agent",
          },
        ]}
      />
    </Section>
  );
}
