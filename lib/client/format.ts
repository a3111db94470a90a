// How the dashboard writes dates, money and ids (components/ui/format.tsx renders them). Pure
// functions of their input, the locale and the zone, so the unit tests pin each case.

/** Where and how to format: the reader's locale and zone when left out (undefined). */
export type FormatContext = { locale?: string; timeZone?: string; now?: Date };

const yearIn = (date: Date, timeZone: string | undefined) =>
  new Intl.DateTimeFormat("en-US", { year: "numeric", timeZone }).format(date);

/**
 * A date-time short enough for one line of a table, always with its zone: "Feb 23, 2:08 PM EST",
 * or "Feb 23, 2025, 2:08 PM EST" when not in the current year (of that zone).
 */
export function formatDateTime(iso: string, { locale, timeZone, now = new Date() }: FormatContext = {}): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const thisYear = yearIn(date, timeZone) === yearIn(now, timeZone);
  return new Intl.DateTimeFormat(locale, {
    year: thisYear ? undefined : "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  }).format(date);
}

/**
 * A day someone picked (a key's expiry), stored as 00:00 UTC of that day (components/api-keys/key-form.ts):
 * true when the value is exactly such a midnight, so it reads as that day everywhere.
 */
export const isPickedDay = (iso: string) => /T00:00:00(\.0+)?(Z|\+00:00)$/.test(iso);

/** A picked day as that day, in any zone: "Feb 23, 2027" (read in UTC, where it was stored). */
export function formatPickedDay(iso: string, { locale }: FormatContext = {}): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" }).format(
    date,
  );
}

/** Digits after the decimal point of a decimal string ("21.5" has 1). */
const decimalsOf = (amount: string) => amount.split(".")[1]?.length ?? 0;

/**
 * An amount (a decimal string, as the API sends it) in its currency, grouped: "£23,726.74".
 * Never rounds: a currency's usual decimals are the minimum, the amount's own are kept beyond them.
 * A code Intl does not accept (not three letters) falls back to the grouped number and the code.
 */
export function formatMoney(amount: string, currency: string, { locale }: FormatContext = {}): string {
  // Intl formats a decimal string exactly (no trip through a float): a numeric string literal, as its types say.
  const value = amount as Intl.StringNumericLiteral;
  const digits = Math.min(20, decimalsOf(amount));
  try {
    const usual = new Intl.NumberFormat(locale, { style: "currency", currency }).resolvedOptions();
    const maximumFractionDigits = Math.max(usual.maximumFractionDigits ?? 2, digits);
    return new Intl.NumberFormat(locale, { style: "currency", currency, maximumFractionDigits }).format(value);
  } catch {
    return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value)} ${currency}`;
  }
}

/** A long id shortened for a table cell: its first 8 and last 4 characters ("txn_8Hk2…x9Qa"); short ones whole. */
export function shortId(id: string): string {
  return id.length <= 14 ? id : `${id.slice(0, 8)}…${id.slice(-4)}`;
}

/** A file's size in the units people read (binary, as the upload limit is stated): "812 bytes", "4.2 KB", "9.8 MB". */
export function formatBytes(size: number): string {
  if (size < 1024) return `${size} ${size === 1 ? "byte" : "bytes"}`;
  const units = ["KB", "MB", "GB"];
  let value = size / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
