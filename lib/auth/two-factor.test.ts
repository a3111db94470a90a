import { beforeAll, describe, expect, it } from "vitest";
import { createPlatform } from "@/lib/accounts/platforms";
import { sha256 } from "@/lib/auth/tokens";
import { db } from "@/lib/db";
import { consumeRecoveryCode, newRecoveryCodes, normalizeRecoveryCode, recoveryCodeRows } from "@/lib/auth/two-factor";
import { newId } from "@/lib/ids/generate";

const CODE_FORM = /^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/;

describe("newRecoveryCodes", () => {
  it("gives ten distinct codes of four groups of four base32 characters", () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(CODE_FORM);
    expect(new Set(codes).size).toBe(10);
  });

  it("gives new codes on every call", () => {
    const first = newRecoveryCodes();
    const second = newRecoveryCodes();
    expect(second.filter((code) => first.includes(code))).toEqual([]);
  });
});

describe("normalizeRecoveryCode", () => {
  const plain = "abcdefghijklmnop";
  it.each([
    ...["abcd-efgh-ijkl-mnop", "ABCD-EFGH-IJKL-MNOP", "  abcd efgh\tijkl-mnop ", plain].map((input) => [input, plain]),
    ["ab-cd_ef.gh/23", "abcdefgh23"],
    ["", ""],
  ])("normalises %j to %j", (input, expected) => {
    expect(normalizeRecoveryCode(input)).toBe(expected);
  });
});

describe("recoveryCodeRows", () => {
  it("stores the SHA-256 of the normalised code, never the code", () => {
    const codes = newRecoveryCodes();
    const rows = recoveryCodeRows("emp_x", codes);
    expect(rows).toHaveLength(codes.length);
    rows.forEach((row, index) => {
      expect(row.id).toMatch(/^rc_[0-9a-z]{20}$/);
      expect(row.employeeId).toBe("emp_x");
      expect(row.codeHash).toBe(sha256(normalizeRecoveryCode(codes[index]!)));
      expect(row.codeHash).not.toContain(normalizeRecoveryCode(codes[index]!));
    });
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
  });
});

describe("consumeRecoveryCode", () => {
  let employeeId: string;
  let otherEmployeeId: string;
  let codes: string[];
  let otherCodes: string[];

  async function createEmployee(accountId: string, email: string) {
    const id = newId("emp");
    await db().employee.create({ data: { id, accountId, name: "Ada", email, status: "active" } });
    return id;
  }

  beforeAll(async () => {
    const account = await createPlatform({ name: "Recovery Co" });
    employeeId = await createEmployee(account.id, "ada@example.com");
    otherEmployeeId = await createEmployee(account.id, "bob@example.com");
    codes = newRecoveryCodes();
    otherCodes = newRecoveryCodes();
    await db().recoveryCode.createMany({ data: recoveryCodeRows(employeeId, codes) });
    await db().recoveryCode.createMany({ data: recoveryCodeRows(otherEmployeeId, otherCodes) });
  });

  it("accepts an unused code once, then refuses it", async () => {
    expect(await consumeRecoveryCode({ employeeId, code: codes[0]! })).toBe(true);
    expect(await consumeRecoveryCode({ employeeId, code: codes[0]! })).toBe(false);
  });

  it("marks the spent code used and leaves the others unused", async () => {
    expect(await consumeRecoveryCode({ employeeId, code: codes[1]! })).toBe(true);
    const rows = await db().recoveryCode.findMany({ where: { employeeId } });
    const spent = rows.find((row) => row.codeHash === sha256(normalizeRecoveryCode(codes[1]!)))!;
    expect(spent.usedAt).toBeInstanceOf(Date);
    const untouched = codes.slice(2).map((code) => sha256(normalizeRecoveryCode(code)));
    expect(rows.filter((row) => untouched.includes(row.codeHash)).every((row) => row.usedAt === null)).toBe(true);
  });

  it("accepts a code typed in upper case, without dashes or with spaces", async () => {
    expect(await consumeRecoveryCode({ employeeId, code: codes[2]!.toUpperCase() })).toBe(true);
    expect(await consumeRecoveryCode({ employeeId, code: codes[3]!.replaceAll("-", "") })).toBe(true);
    expect(await consumeRecoveryCode({ employeeId, code: ` ${codes[4]!.replaceAll("-", " ")} ` })).toBe(true);
    expect(await consumeRecoveryCode({ employeeId, code: codes[2]! })).toBe(false);
  });

  it("refuses another employee's code and leaves it usable by its owner", async () => {
    expect(await consumeRecoveryCode({ employeeId, code: otherCodes[0]! })).toBe(false);
    expect(await consumeRecoveryCode({ employeeId: otherEmployeeId, code: otherCodes[0]! })).toBe(true);
  });

  it("refuses unknown and wrongly sized codes", async () => {
    expect(await consumeRecoveryCode({ employeeId, code: "aaaa-aaaa-aaaa-aaaa" })).toBe(false);
    expect(await consumeRecoveryCode({ employeeId, code: codes[5]!.slice(0, -1) })).toBe(false);
    expect(await consumeRecoveryCode({ employeeId, code: `${codes[5]!}a` })).toBe(false);
    expect(await consumeRecoveryCode({ employeeId, code: "" })).toBe(false);
    // The near-misses above did not spend the real code.
    expect(await consumeRecoveryCode({ employeeId, code: codes[5]! })).toBe(true);
  });

  it("refuses an unknown employee", async () => {
    expect(await consumeRecoveryCode({ employeeId: "emp_nobody", code: codes[6]! })).toBe(false);
  });

  it("lets only one of two concurrent uses of a code succeed", async () => {
    const results = await Promise.all([
      consumeRecoveryCode({ employeeId, code: codes[7]! }),
      consumeRecoveryCode({ employeeId, code: codes[7]! }),
      consumeRecoveryCode({ employeeId, code: codes[7]! }),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});
