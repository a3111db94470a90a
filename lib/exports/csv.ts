// CSV as RFC 4180 writes it (CRLF line ends; a field holding a comma, a quote, CR or LF in quotes, its
// quotes doubled), with one rule of ours: a cell that a spreadsheet would read as a formula (it
// begins with =, +, -, @, tab or CR) is prefixed with a single quote, so an exported value someone
// typed in (a reason, a name) can never run as one when the file is opened (OWASP's "CSV injection").

/** The characters a spreadsheet starts a formula with (tab and CR too: some strip them, then see the rest). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One value as a CSV field: null and undefined as an empty field, dates as ISO 8601, objects as JSON. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text =
    value instanceof Date ? value.toISOString() : typeof value === "object" ? JSON.stringify(value) : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, CRLF-terminated. */
export const csvRecord = (values: readonly unknown[]): string => `${values.map(csvField).join(",")}\r\n`;
