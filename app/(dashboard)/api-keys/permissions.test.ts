import { describe, expect, it } from "vitest";
import {
  creatorLabel,
  defaultPermissionsFor,
  groupPermissions,
  offerablePermissions,
  permissionLabel,
  readOnlyPermissionsFor,
  resourceLines,
  summarisePermissions,
} from "@/components/api-keys/permissions";
import { DEFAULT_KEY_PERMISSIONS, KEY_PERMISSIONS, PERMISSIONS, ROLE_PERMISSIONS } from "@/lib/auth/permissions";

describe("groupPermissions", () => {
  it("places every permission in exactly one group, so the checklist offers all a key may hold", () => {
    const placed = groupPermissions(PERMISSIONS).flatMap((group) =>
      group.resources.flatMap((resource) => resource.actions.map((item) => item.permission)),
    );
    expect([...placed].sort()).toEqual([...PERMISSIONS].sort());
  });

  it("leaves out empty groups and keeps the table's order within a resource", () => {
    expect(groupPermissions(["recipients:write", "transactions:read", "recipients:read"])).toEqual([
      {
        label: "Money",
        resources: [
          {
            resource: "transactions",
            label: "Transactions",
            actions: [{ permission: "transactions:read", action: "read" }],
          },
          {
            resource: "recipients",
            label: "Recipients",
            actions: [
              { permission: "recipients:read", action: "read" },
              { permission: "recipients:write", action: "write" },
            ],
          },
        ],
      },
    ]);
    expect(groupPermissions([])).toEqual([]);
  });
});

describe("labels", () => {
  it("reads as resource and action", () => {
    expect(permissionLabel("transactions:read")).toBe("Transactions: read");
    expect(permissionLabel("information_requests:write")).toBe("Information requests: write");
    expect(permissionLabel("kyc:read")).toBe("KYC: read");
    expect(permissionLabel("roles")).toBe("Roles: change");
  });

  it("gives one line per resource", () => {
    expect(resourceLines(["virtual_accounts:write", "virtual_accounts:read", "audit_log:read"])).toEqual([
      "Virtual accounts: read, write",
      "Audit log: read",
    ]);
  });
});

describe("what the issue form offers", () => {
  it("pre-checks what the API gives when permissions are left out", () => {
    expect(defaultPermissionsFor(ROLE_PERMISSIONS.admin)).toEqual(DEFAULT_KEY_PERMISSIONS);
    expect(defaultPermissionsFor(ROLE_PERMISSIONS.developer)).not.toContain("employees:read");
    expect(defaultPermissionsFor(ROLE_PERMISSIONS.developer)).toContain("webhooks:write");
    expect(defaultPermissionsFor(ROLE_PERMISSIONS.owner)).not.toContain("employees:write");
  });

  it("offers only key permissions the role holds", () => {
    expect(offerablePermissions(ROLE_PERMISSIONS.owner)).toEqual(KEY_PERMISSIONS);
    expect(offerablePermissions(ROLE_PERMISSIONS.owner)).not.toContain("settings:write");
    expect(
      offerablePermissions(ROLE_PERMISSIONS.developer).every((permission) =>
        ROLE_PERMISSIONS.developer.includes(permission),
      ),
    ).toBe(true);
    expect(readOnlyPermissionsFor(ROLE_PERMISSIONS.admin).every((permission) => permission.endsWith(":read"))).toBe(
      true,
    );
    expect(readOnlyPermissionsFor(ROLE_PERMISSIONS.admin)).toContain("settings:read");
  });
});

describe("summarisePermissions", () => {
  it.each([
    [[], "No permissions"],
    [DEFAULT_KEY_PERMISSIONS, "All default permissions"],
    [KEY_PERMISSIONS, "All permissions"],
    [["transactions:read"], "1 permission, read only"],
    [["transactions:read", "recipients:read"], "2 permissions, read only"],
    [["transactions:read", "recipients:write", "recipients:read"], "3 permissions"],
  ] as const)("%j reads %s", (list, expected) => {
    expect(summarisePermissions(list)).toBe(expected);
  });

  it("is about the set, not the order or repeats", () => {
    expect(summarisePermissions([...DEFAULT_KEY_PERMISSIONS].reverse())).toBe("All default permissions");
    expect(summarisePermissions(["kyc:read", "kyc:read"])).toBe("1 permission, read only");
  });
});

describe("creatorLabel", () => {
  const keys = [
    { id: "key_a", name: "Payouts", prefix: "svc_abc" },
    { id: "key_b", name: null, prefix: "svc_def" },
  ];
  const employees = new Map([["emp_2", "Robin Reyes"]]);

  it("names employees when the names could be read, and the reader as you", () => {
    expect(creatorLabel({ type: "employee", id: "emp_1" }, { meId: "emp_1", employees, keys })).toBe("you");
    expect(creatorLabel({ type: "employee", id: "emp_2" }, { meId: "emp_1", employees, keys })).toBe("Robin Reyes");
    expect(creatorLabel({ type: "employee", id: "emp_3" }, { meId: "emp_1", employees, keys })).toBe("an employee");
    // Without employees:read there is no list of names.
    expect(creatorLabel({ type: "employee", id: "emp_2" }, { meId: "emp_1", keys })).toBe("an employee");
  });

  it("names keys by name, else prefix, else generically", () => {
    expect(creatorLabel({ type: "api_key", id: "key_a" }, { meId: "emp_1", keys })).toBe("the key Payouts");
    expect(creatorLabel({ type: "api_key", id: "key_b" }, { meId: "emp_1", keys })).toBe("the key svc_def…");
    expect(creatorLabel({ type: "api_key", id: "key_gone" }, { meId: "emp_1", keys })).toBe("another API key");
    expect(creatorLabel(null, { meId: "emp_1", keys })).toBeNull();
  });
});
