import { describe, expect, it } from "vitest";
import { countryName, countryOptions, isCountryCode } from "@/lib/kyc/countries";

describe("isCountryCode", () => {
  it("accepts ISO 3166-1 alpha-2 codes written upper-case", () => {
    for (const code of ["DE", "GB", "US", "FR", "JP", "BR"]) expect(isCountryCode(code), code).toBe(true);
  });

  it("refuses lower case, alpha-3, numeric and unassigned codes", () => {
    for (const code of ["de", "DEU", "276", "XX", "ZZ", "", "D", " DE"]) expect(isCountryCode(code), code).toBe(false);
  });
});

describe("countryName", () => {
  it("names a code in English, and nothing for an unknown one", () => {
    expect(countryName("DE")).toBe("Germany");
    expect(countryName("GB")).toBe("United Kingdom");
    expect(countryName("XX")).toBeUndefined();
    expect(countryName("de")).toBeUndefined();
  });
});

describe("countryOptions", () => {
  it("lists every valid code once, named, sorted by name", () => {
    const list = countryOptions();
    expect(list.length).toBeGreaterThan(240);
    expect(new Set(list.map((option) => option.code)).size).toBe(list.length);
    for (const option of list) expect(isCountryCode(option.code), option.code).toBe(true);
    expect(list.find((option) => option.code === "DE")).toEqual({ code: "DE", name: "Germany" });
    const names = list.map((option) => option.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en")));
  });
});
