import { describe, expect, it } from "vitest";
import { loginHref, safeNextPath } from "@/lib/auth/next-path";

describe("safeNextPath", () => {
  it("keeps a path of this site with its query and fragment", () => {
    expect(safeNextPath("/information-requests")).toBe("/information-requests");
    expect(safeNextPath("/information-requests?status=on_review&account=acct_x")).toBe(
      "/information-requests?status=on_review&account=acct_x",
    );
    expect(safeNextPath("/webhooks/we_1#deliveries")).toBe("/webhooks/we_1#deliveries");
    // Dot segments are resolved, and stay on this site.
    expect(safeNextPath("/a/../kyc")).toBe("/kyc");
  });

  it("refuses anything that is not a same-origin path", () => {
    for (const next of [
      null,
      undefined,
      "",
      "information-requests",
      "//evil.example",
      "//evil.example/information-requests",
      "/\\evil.example",
      "/\\/evil.example",
      "\\\\evil.example",
      "https://evil.example/",
      "http:/evil.example",
      "javascript:alert(1)",
      "data:text/html,hi",
      " /kyc",
      "/\t/evil.example",
      "/\n/evil.example",
      "/kyc\\..\\..",
      `/${"a".repeat(2001)}`,
    ]) {
      expect(safeNextPath(next), String(next)).toBeNull();
    }
  });

  it("refuses the sign-in page itself, which would only loop", () => {
    expect(safeNextPath("/login")).toBeNull();
    expect(safeNextPath("/login?next=/kyc")).toBeNull();
  });
});

describe("loginHref", () => {
  it("carries a safe path as `next`, encoded", () => {
    expect(loginHref("/information-requests?status=on_review&account=acct_x")).toBe(
      "/login?next=%2Finformation-requests%3Fstatus%3Don_review%26account%3Dacct_x",
    );
  });

  it("is the plain sign-in page for the home page or an unsafe path", () => {
    expect(loginHref("/")).toBe("/login");
    expect(loginHref("//evil.example")).toBe("/login");
    expect(loginHref(null)).toBe("/login");
  });
});
