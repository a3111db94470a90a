import { describe, expect, it } from "vitest";
import { formatBytes, formatDateTime, formatMoney, formatPickedDay, isPickedDay, shortId } from "@/lib/client/format";

const newYork = { locale: "en-US", timeZone: "America/New_York", now: new Date("2027-06-01T12:00:00Z") };

describe("formatDateTime", () => {
  it("names the zone, and leaves out the year of the current one", () => {
    expect(formatDateTime("2027-02-23T19:08:00Z", newYork)).toBe("Feb 23, 2:08 PM EST");
    expect(formatDateTime("2027-07-04T16:30:00Z", newYork)).toBe("Jul 4, 12:30 PM EDT");
  });

  it("writes the year when it is not the current one", () => {
    expect(formatDateTime("2025-02-23T19:08:00Z", newYork)).toBe("Feb 23, 2025, 2:08 PM EST");
  });

  it("reads the year in the zone shown: New Year's Eve in New York is still last year there", () => {
    const now = new Date("2027-01-01T02:00:00Z");
    expect(formatDateTime("2026-12-31T23:30:00Z", { ...newYork, now })).toBe("Dec 31, 6:30 PM EST");
    expect(formatDateTime("2026-12-31T23:30:00Z", { locale: "en-GB", timeZone: "UTC", now })).toBe(
      "31 Dec 2026, 23:30 UTC",
    );
  });

  it("gives back what is not a date as it came", () => {
    expect(formatDateTime("not a date", newYork)).toBe("not a date");
  });
});

describe("picked days", () => {
  it("a day stored as 00:00 UTC is that day in New York too", () => {
    expect(isPickedDay("2027-02-23T00:00:00.000Z")).toBe(true);
    expect(formatPickedDay("2027-02-23T00:00:00.000Z", { locale: "en-US" })).toBe("Feb 23, 2027");
  });

  it("any other instant is not a picked day", () => {
    expect(isPickedDay("2027-02-23T00:00:01.000Z")).toBe(false);
    expect(isPickedDay("2027-02-23T05:00:00.000Z")).toBe(false);
  });
});

describe("formatMoney", () => {
  it("groups and writes the currency's sign", () => {
    expect(formatMoney("23726.74", "GBP", { locale: "en-US" })).toBe("£23,726.74");
    expect(formatMoney("1234567.5", "EUR", { locale: "de-DE" })).toBe("1.234.567,50\u00a0€");
  });

  it("keeps the currency's usual decimals and never rounds the amount's own", () => {
    expect(formatMoney("5", "USD", { locale: "en-US" })).toBe("$5.00");
    expect(formatMoney("1000", "JPY", { locale: "en-US" })).toBe("¥1,000");
    expect(formatMoney("0.12345678", "BTC", { locale: "en-US" })).toBe("BTC\u00a00.12345678");
    expect(formatMoney("12345678901234567.89", "USD", { locale: "en-US" })).toBe("$12,345,678,901,234,567.89");
  });

  it("a code that is not a currency for Intl falls back to the grouped number and the code", () => {
    expect(formatMoney("23726.5", "USDC", { locale: "en-US" })).toBe("23,726.5 USDC");
  });
});

describe("shortId", () => {
  it("keeps the first 8 and the last 4 characters of a long id", () => {
    expect(shortId("txn_8Hk2mQ0pLr7sVt9x9Qa")).toBe("txn_8Hk2…x9Qa");
    expect(shortId("emp_short")).toBe("emp_short");
  });
});

describe("formatBytes", () => {
  it("says bytes below a kilobyte, then one decimal below ten units, whole numbers above", () => {
    expect(formatBytes(1)).toBe("1 byte");
    expect(formatBytes(812)).toBe("812 bytes");
    expect(formatBytes(4300)).toBe("4.2 KB");
    expect(formatBytes(10 * 1024 * 1024)).toBe("10 MB");
    expect(formatBytes(9.8 * 1024 * 1024)).toBe("9.8 MB");
    expect(formatBytes(150 * 1024)).toBe("150 KB");
  });
});
