import { describe, expect, it } from "vitest";
import { availableActions, mayActOnEmployees } from "@/components/employees/available-actions";
import { grantableRoles } from "@/components/employees/roles";
import type { Employee } from "@/components/employees/use-employees";
import { roleAllows, type Role } from "@/lib/auth/permissions";

const as = (role: Role) => (permission: Parameters<typeof roleAllows>[1]) => roleAllows(role, permission);

const someone = (overrides: Partial<Employee> = {}): Employee => ({
  id: "emp_other",
  name: "Robin",
  email: "robin@acme.example",
  status: "active",
  role: "developer",
  twoFactorEnabled: true,
  lastLoginAt: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  deactivatedAt: null,
  ...overrides,
});

describe("grantableRoles", () => {
  it.each([
    ["owner", ["owner", "admin", "developer", "compliance", "viewer"]],
    ["admin", ["admin", "developer", "compliance", "viewer"]],
    ["developer", ["viewer"]],
    ["viewer", ["viewer"]],
  ] as const)("%s may give %j", (role, roles) => {
    expect(grantableRoles(as(role))).toEqual(roles);
  });
});

describe("availableActions", () => {
  it("offers an admin everything on a non-owner with 2FA", () => {
    expect(availableActions({ meId: "emp_me", employee: someone(), can: as("admin") })).toEqual([
      "change-role",
      "password-reset",
      "deactivate",
      "reset-two-factor",
    ]);
  });

  it("offers no 2FA reset when it is already off", () => {
    expect(
      availableActions({ meId: "emp_me", employee: someone({ twoFactorEnabled: false }), can: as("admin") }),
    ).toEqual(["change-role", "password-reset", "deactivate"]);
  });

  it("leaves owners to owners", () => {
    const owner = someone({ role: "owner" });
    expect(availableActions({ meId: "emp_me", employee: owner, can: as("admin") })).toEqual([]);
    expect(availableActions({ meId: "emp_me", employee: owner, can: as("owner") })).toEqual([
      "change-role",
      "password-reset",
      "deactivate",
      "reset-two-factor",
    ]);
  });

  it("offers only a role change on oneself", () => {
    expect(availableActions({ meId: "emp_other", employee: someone(), can: as("owner") })).toEqual(["change-role"]);
  });

  it("offers a new invitation link, not a password reset, for an invited employee", () => {
    const invited = someone({ status: "invited", twoFactorEnabled: false });
    expect(availableActions({ meId: "emp_me", employee: invited, can: as("admin") })).toEqual([
      "change-role",
      "new-invitation",
      "deactivate",
    ]);
  });

  it("offers a new invitation link for an invited admin only to who may give that role", () => {
    const invited = someone({ status: "invited", role: "admin", twoFactorEnabled: false });
    const writesEmployeesOnly = (permission: string) => permission === "employees:write";
    expect(availableActions({ meId: "emp_me", employee: invited, can: writesEmployeesOnly })).toEqual(["deactivate"]);
    const viewer = someone({ status: "invited", role: "viewer", twoFactorEnabled: false });
    expect(availableActions({ meId: "emp_me", employee: viewer, can: writesEmployeesOnly })).toEqual([
      "new-invitation",
      "deactivate",
    ]);
  });

  it("offers nothing on a deactivated employee", () => {
    expect(
      availableActions({ meId: "emp_me", employee: someone({ status: "deactivated" }), can: as("owner") }),
    ).toEqual([]);
  });

  it.each(["developer", "compliance", "viewer"] as const)("offers a %s nothing", (role) => {
    expect(availableActions({ meId: "emp_me", employee: someone(), can: as(role) })).toEqual([]);
    expect(mayActOnEmployees(as(role))).toBe(false);
  });
});
