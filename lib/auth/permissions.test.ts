// The rule for derived views (lib/auth/permissions.ts): a derived view is bound by the read
// permission of what it shows. Its table is checked here against the event types' own names.
import { describe, expect, it } from "vitest";
import {
  EVENT_TYPE_READ_PERMISSIONS,
  KEY_PERMISSIONS,
  PERMISSIONS,
  ROLE_PERMISSIONS,
  ROLES,
  maySeeDerived,
  missingReadPermission,
} from "@/lib/auth/permissions";
import { EVENT_TYPE_NAMES } from "@/lib/webhooks/event-types";

const resourceOf = (permission: string) => permission.split(":")[0]!;

describe("EVENT_TYPE_READ_PERMISSIONS", () => {
  it("names a read permission for every event type, and only for event types", () => {
    expect(Object.keys(EVENT_TYPE_READ_PERMISSIONS).sort()).toEqual([...EVENT_TYPE_NAMES].sort());
    for (const permission of Object.values(EVENT_TYPE_READ_PERMISSIONS)) {
      expect(PERMISSIONS).toContain(permission);
      expect(permission).toMatch(/:read$/);
    }
  });

  it("maps each event type to the resource its name starts with (kyc.* to kyc:read, employee.* to employees:read, audit.* to audit_log:read, ...)", () => {
    for (const type of EVENT_TYPE_NAMES) {
      const prefix = type.split(".")[0]!;
      expect([prefix, `${prefix}s`, `${prefix}_log`], type).toContain(resourceOf(EVENT_TYPE_READ_PERMISSIONS[type]));
    }
  });
});

describe("missingReadPermission", () => {
  it("answers the event type's read permission when the caller lacks it, else null, for every role and event type", () => {
    for (const role of ROLES) {
      const caller = { permissions: ROLE_PERMISSIONS[role] };
      for (const type of EVENT_TYPE_NAMES) {
        const needed = EVENT_TYPE_READ_PERMISSIONS[type];
        const expected = ROLE_PERMISSIONS[role].includes(needed) ? null : needed;
        expect(missingReadPermission(caller, type), `${role} ${type}`).toBe(expected);
        expect(maySeeDerived(caller, type), `${role} ${type}`).toBe(expected === null);
      }
    }
  });

  it("binds a developer as the third attack showed: no kyc.*, information_request.* or employee.* events", () => {
    const developer = { permissions: ROLE_PERMISSIONS.developer };
    expect(missingReadPermission(developer, "kyc.profile.updated")).toBe("kyc:read");
    expect(missingReadPermission(developer, "information_request.created")).toBe("information_requests:read");
    expect(missingReadPermission(developer, "employee.invited")).toBe("employees:read");
    expect(missingReadPermission(developer, "transfer.created")).toBeNull();
  });

  it("takes a resource's read permission too (an export of that resource)", () => {
    expect(missingReadPermission({ permissions: ["kyc:read"] }, "kyc:read")).toBeNull();
    expect(missingReadPermission({ permissions: ["audit_log:read"] }, "kyc:read")).toBe("kyc:read");
  });

  it("shows what it does not know (an event type no longer listed) only to a caller who may read everything", () => {
    const allReads = PERMISSIONS.filter((permission) => permission.endsWith(":read"));
    expect(missingReadPermission({ permissions: allReads }, "kyc.retired_event")).toBeNull();
    expect(
      missingReadPermission(
        { permissions: KEY_PERMISSIONS.filter((permission) => permission !== "transfers:read") },
        "kyc.retired_event",
      ),
    ).toBe("transfers:read");
    expect(missingReadPermission({ permissions: [] }, "kyc:write")).not.toBeNull();
  });
});
