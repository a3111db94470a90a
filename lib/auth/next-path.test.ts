import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loginHref, redirectTarget, safeNextPath } from "@/lib/auth/next-path";

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

  // Each of these was answered `307 Location: //evil.example`: the text was checked before the browser's
  // resolution of dot segments turned it into a scheme-relative URL.
  it("refuses a path that resolves to another site once dot segments are removed", () => {
    for (const next of [
      "/.//evil.example",
      "/..//evil.example/x",
      "/%2e//evil.example",
      "/%2E%2E//evil.example",
      "/a/..//evil.example",
      "/a/%2e%2e//evil.example",
      "/./\\evil.example",
      "/%2f%2fevil.example",
      "/%5cevil.example",
      "/./%2f/evil.example",
    ]) {
      expect(safeNextPath(next), next).toBeNull();
      expect(redirectTarget(next), next).toBe("/");
    }
  });

  it("refuses the sign-in page itself, which would only loop", () => {
    expect(safeNextPath("/login")).toBeNull();
    expect(safeNextPath("/login?next=/kyc")).toBeNull();
  });
});

const ORIGIN = "https://service.example";

/** A path built from the pieces that confuse URL checks: dot segments in any spelling, slashes, encodings. */
const trickyPath = fc
  .array(
    fc.constantFrom(
      "",
      ".",
      "..",
      "%2e",
      "%2E",
      ".%2e",
      "%2e%2e",
      "%2f",
      "%2F",
      "%5c",
      "\\",
      "evil.example",
      "a",
      "kyc",
      "@evil.example",
      "https:",
      "%00",
      "%252f",
      ":",
      "?next=//evil.example",
      "#/x",
    ),
    { maxLength: 7 },
  )
  .chain((segments) =>
    fc.constantFrom("/", "//", "/./", "/../", "\\", "").map((start) => `${start}${segments.join("/")}`),
  );

describe("safeNextPath over generated paths", () => {
  it("accepts only a path that stays on the service's origin, begins with one slash and checks the same again", () => {
    fc.assert(
      fc.property(trickyPath, (next) => {
        const accepted = safeNextPath(next);
        if (accepted === null) return;
        // As a browser resolves the Location it is given, on the service's own origin.
        const resolved = new URL(accepted, ORIGIN);
        expect(resolved.origin).toBe(ORIGIN);
        expect(accepted).toMatch(/^\/(?![/\\])/);
        expect(decodeURIComponent(resolved.pathname)).toMatch(/^\/(?![/\\])/);
        expect(`${resolved.pathname}${resolved.search}${resolved.hash}`).toBe(accepted);
        // What it answers is itself safe: no second resolution moves it elsewhere.
        expect(safeNextPath(accepted)).toBe(accepted);
      }),
      { numRuns: 5000 },
    );
  });

  it("keeps what a plain path of the site resolves to", () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z0-9_-]{1,12}$/), { minLength: 1, maxLength: 5 }), (segments) => {
        const next = `/${segments.join("/")}`;
        expect(safeNextPath(next)).toBe(next === "/login" ? null : next);
      }),
    );
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
