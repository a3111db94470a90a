import { describe, expect, it } from "vitest";
import { csvField, csvRecord } from "@/lib/exports/csv";
import { parseCsv } from "@/lib/testing/csv";

describe("csvField", () => {
  it.each([
    ["=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
    ["+1", "'+1"],
    ["-1", "'-1"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tx", "'\tx"],
    ["\rx", `"'\rx"`],
    ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
    ['say "hi"', '"say ""hi"""'],
    ["a,b", '"a,b"'],
    ["one\ntwo", '"one\ntwo"'],
    ["one\r\ntwo", '"one\r\ntwo"'],
    ["Zoë, 中文 😀", '"Zoë, 中文 😀"'],
    ["Zoë 中文 😀", "Zoë 中文 😀"],
    ["a=b", "a=b"],
    ["plain", "plain"],
    ["", ""],
  ])("%j → %j", (value, written) => {
    expect(csvField(value)).toBe(written);
  });

  it("writes null and undefined as empty, numbers, booleans, dates as ISO 8601 and objects as JSON", () => {
    expect(csvField(null)).toBe("");
    expect(csvField(undefined)).toBe("");
    expect(csvField(42)).toBe("42");
    // A negative number begins with "-": prefixed by the same rule, which keeps the rule simple.
    expect(csvField(-5)).toBe("'-5");
    expect(csvField(true)).toBe("true");
    expect(csvField(new Date("2026-11-01T10:00:00.000Z"))).toBe("2026-11-01T10:00:00.000Z");
    expect(csvField({ reason: "a,b" })).toBe('"{""reason"":""a,b""}"');
  });
});

describe("csvRecord", () => {
  it("ends each record with CRLF and reads back as the (neutralised) values", () => {
    const values = ["=1+2", "a,b", 'q"uote', "line\nbreak", "cr\rhere", "ünï", null, "-3"];
    const text = csvRecord(["a", "b", "c", "d", "e", "f", "g", "h"]) + csvRecord(values);
    expect(text.endsWith("\r\n")).toBe(true);
    expect(parseCsv(text)).toEqual([
      ["a", "b", "c", "d", "e", "f", "g", "h"],
      ["'=1+2", "a,b", 'q"uote', "line\nbreak", "cr\rhere", "ünï", "", "'-3"],
    ]);
  });
});
