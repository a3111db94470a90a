import { expect } from "vitest";

/**
 * Parses CSV as RFC 4180 defines it (CRLF records, quoted fields with doubled quotes), strictly: a
 * record not ended by CRLF, a bare quote in an unquoted field or a quote not followed by a separator
 * fails the test. For reading what an export wrote, not for forgiving input.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let index = 0;
  while (index < text.length) {
    let field = "";
    if (text[index] === '"') {
      index += 1;
      for (;;) {
        const quote = text.indexOf('"', index);
        expect(quote, "an unterminated quoted field").toBeGreaterThanOrEqual(0);
        field += text.slice(index, quote);
        index = quote + 1;
        if (text[index] !== '"') break;
        field += '"';
        index += 1;
      }
    } else {
      const end = text.slice(index).search(/,|\r\n/);
      field = text.slice(index, end === -1 ? text.length : index + end);
      expect(field, "a quote, CR or LF in an unquoted field").not.toMatch(/["\r\n]/);
      index += field.length;
    }
    record.push(field);
    if (text.startsWith(",", index)) {
      index += 1;
      continue;
    }
    expect(text.startsWith("\r\n", index), `a record not ended by CRLF at ${index}`).toBe(true);
    index += 2;
    records.push(record);
    record = [];
  }
  return records;
}

/** The records of a CSV file as objects keyed by its header row. */
export function csvObjects(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  expect(header).toBeDefined();
  return rows.map((row) => Object.fromEntries(header!.map((name, column) => [name, row[column] ?? ""])));
}
