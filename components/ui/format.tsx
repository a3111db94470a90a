"use client";

/** A timestamp in the reader's locale, with the exact UTC value on hover. */
export function DateTime({ value, fallback = "—" }: { value: string | null | undefined; fallback?: string }) {
  if (!value) return <span className="muted">{fallback}</span>;
  const date = new Date(value);
  return (
    <time dateTime={value} title={date.toISOString()}>
      {date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}
    </time>
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

/** Copies text to the clipboard, with a visible confirmation. */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  return (
    <button
      type="button"
      onClick={(event) => {
        // Nobody waits for the copy: a refused clipboard is swallowed inside, the label shows the outcome.
        void copyText(event.currentTarget, text, label);
      }}
    >
      {label}
    </button>
  );
}

async function copyText(button: HTMLButtonElement, text: string, label: string) {
  await navigator.clipboard?.writeText(text).catch(() => undefined);
  button.dataset.copied = "true";
  button.textContent = "Copied";
  setTimeout(() => {
    button.textContent = label;
  }, 1500);
}
