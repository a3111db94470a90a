import { describe, expect, it } from "vitest";
import { throttleKey } from "@/lib/auth/throttle";

describe("throttleKey", () => {
  // Counters live in the database: a renamed key would hand every blocked caller a fresh window on deploy.
  it("names a counter by its kind and its parts, joined by |", () => {
    expect(throttleKey("totp", "emp_1")).toBe("totp:emp_1");
    expect(throttleKey("signin:account-ip", "a@example.com", "203.0.113.7")).toBe("signin:account-ip:a@example.com|203.0.113.7");
    expect(throttleKey("signin:ip", "2001:db8:1:2::/64")).toBe("signin:ip:2001:db8:1:2::/64");
    expect(throttleKey("signin:account", "a@example.com")).toBe("signin:account:a@example.com");
    expect(throttleKey("password-change", "emp_1")).toBe("password-change:emp_1");
  });
});
