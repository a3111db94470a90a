"use client";

import { useState } from "react";
import { formatDateTime, formatMoney, formatPickedDay, isPickedDay, shortId } from "@/lib/client/format";
import { useHydrated } from "@/components/use-hydrated";

/**
 * A timestamp on one line with its zone ("Feb 23, 2:08 PM EST"), the exact UTC value on hover. The
 * server's HTML knows no reader's zone, so it (and the first render in the browser, which must match
 * it) shows UTC; the reader's zone follows as soon as React has taken over.
 * `day`: the value is a day someone picked (a key's expiry, stored as 00:00 UTC of that day), shown
 * as that day ("Feb 23, 2027") in every zone; any other instant still shows as a date-time.
 */
export function DateTime({
  value,
  fallback = "—",
  day = false,
}: {
  value: string | null | undefined;
  fallback?: string;
  day?: boolean;
}) {
  const hydrated = useHydrated();
  if (!value) return <span className="muted">{fallback}</span>;
  const iso = new Date(value).toISOString();
  const text =
    day && isPickedDay(value)
      ? formatPickedDay(value)
      : formatDateTime(value, hydrated ? {} : { locale: "en-US", timeZone: "UTC" });
  return (
    <time dateTime={value} title={iso} className="nowrap">
      {text}
    </time>
  );
}

/** An amount in its currency, grouped ("£23,726.74"); the exact amount and code on hover. */
export function Money({ amount, currency }: { amount: string; currency: string }) {
  const hydrated = useHydrated();
  return (
    <span className="nowrap" title={`${amount} ${currency}`}>
      {formatMoney(amount, currency, hydrated ? {} : { locale: "en-US" })}
    </span>
  );
}

/** A long id shortened to fit a table cell (the whole id on hover and for screen readers), with a copy button. */
export function ShortId({ id }: { id: string }) {
  const short = shortId(id);
  return (
    <span className="short-id">
      <code title={id}>
        {short === id ? (
          id
        ) : (
          <>
            <span aria-hidden="true">{short}</span>
            <span className="visually-hidden">{id}</span>
          </>
        )}
      </code>
      <CopyButton text={id} accessibleName={`Copy ${id}`} icon />
    </span>
  );
}

export function StatusBadge({ status }: { status: string }) {
  const tone: Record<string, string> = {
    active: "ok",
    approved: "ok",
    completed: "ok",
    on: "ok",
    invited: "info",
    requested: "info",
    on_review: "warn",
    pending: "warn",
    rejected: "danger",
    revoked: "danger",
    failed: "danger",
    expired: "",
    inactive: "",
    deleted: "",
    off: "",
  };
  return <span className={`badge ${tone[status] ?? ""}`}>{status.replaceAll("_", " ")}</span>;
}

/**
 * Copies text to the clipboard, with a visible confirmation. `accessibleName` says what is copied where
 * the label alone would not (a table's many copy buttons); `icon` shows a small copy icon instead of
 * the label, for a table cell (the accessible name still says it).
 */
export function CopyButton({
  text,
  label = "Copy",
  accessibleName,
  icon = false,
}: {
  text: string;
  label?: string;
  accessibleName?: string;
  icon?: boolean;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    // A refused clipboard is swallowed: nobody waits for the copy, the label shows the outcome.
    await navigator.clipboard?.writeText(text).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <button
      type="button"
      className={icon ? "copy-icon" : undefined}
      aria-label={copied ? undefined : accessibleName}
      data-copied={copied || undefined}
      onClick={() => void copy()}
    >
      {copied ? "Copied" : icon ? <CopyIcon /> : label}
    </button>
  );
}

/** Two overlapping sheets: the usual "copy" sign. */
function CopyIcon() {
  return (
    <svg
      aria-hidden="true"
      width="14"
      height="14"
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
    >
      <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" />
      <path d="M10.5 3.5v-1a1 1 0 0 0-1-1h-6a1 1 0 0 0-1 1v6a1 1 0 0 0 1 1h1" />
    </svg>
  );
}
