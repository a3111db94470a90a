import { describe, expect, it } from "vitest";
import { DomainError } from "@/lib/errors";
import { addressProblem, checkWebhookUrl, webhookUrlProblem } from "@/lib/webhooks/url-guard";

describe("webhookUrlProblem (at creation and update)", () => {
  it.each([
    "https://example.com/hooks",
    "https://example.com:8443/hooks?x=1",
    "https://8.8.8.8/hooks",
    "https://[2606:4700:4700::1111]/hooks",
  ])("accepts %s", (url) => {
    expect(webhookUrlProblem(url, false)).toBeNull();
  });

  it.each([
    ["http://example.com/hooks", /https/],
    ["ftp://example.com/hooks", /https/],
    ["not a url", /absolute URL/],
    ["https://user:pass@example.com/", /user name or password/],
    ["https://127.0.0.1/", /loopback/],
    ["https://localhost/", /localhost/],
    ["https://app.localhost/", /localhost/],
    ["https://10.1.2.3/", /private/],
    ["https://172.16.0.1/", /private/],
    ["https://192.168.1.1/", /private/],
    ["https://100.64.0.1/", /carrier-grade NAT/],
    ["https://169.254.1.1/", /link-local/],
    ["https://169.254.169.254/latest/meta-data/", /metadata/],
    ["https://[fd00:ec2::254]/", /metadata/],
    ["https://[::1]/", /loopback/],
    ["https://[fe80::1]/", /link-local/],
    ["https://[fc00::1]/", /unique local/],
    ["https://[::ffff:10.0.0.1]/", /private/],
    ["https://0.0.0.0/", /unspecified/],
    // IPv4-compatible IPv6 (::/96): the WHATWG parser writes [::127.0.0.1] as [::7f00:1], which
    // ipaddr.js calls plain unicast.
    ["https://[::127.0.0.1]/", /IPv4-compatible IPv6 \(::\/96\)/],
    ["https://[::7f00:1]/", /IPv4-compatible/],
    ["https://[::a9fe:a9fe]/latest/meta-data/", /IPv4-compatible/],
    ["https://[0:0:0:0:0:0:a00:1]/", /IPv4-compatible/],
    ["https://[::8.8.8.8]/", /IPv4-compatible/],
    ["https://[::0.0.1.0]/", /IPv4-compatible/],
    // The other IPv6 forms that embed IPv4 stay refused.
    ["https://[::ffff:127.0.0.1]/", /loopback/],
    ["https://[::ffff:a9fe:a9fe]/", /metadata/],
    ["https://[::ffff:0:7f00:1]/", /IPv4-translated/],
    ["https://[64:ff9b::7f00:1]/", /NAT64/],
    ["https://[64:ff9b::808:808]/", /NAT64/],
    ["https://[64:ff9b:1::a00:1]/", /NAT64/],
    ["https://[2002:7f00:1::]/", /6to4/],
    ["https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", /Teredo/],
    // Outside global unicast (2000::/3): reserved or unassigned, never a public receiver.
    ["https://[::1:0:0:1]/", /outside 2000::\/3/],
    ["https://[5f00::1]/", /non-public/],
    ["https://[100::1]/", /non-public/],
    ["https://[fec0::1]/", /non-public/],
    // Other spellings of 127.0.0.1 that the URL parser rewrites as a dotted quad.
    ["https://2130706433/", /loopback/],
    ["https://0x7f.0.0.1/", /loopback/],
    ["https://127.1/", /loopback/],
    [`https://example.com/${"a".repeat(2100)}`, /at most 2048/],
  ])("refuses %s", (url, message) => {
    expect(webhookUrlProblem(url, false)).toMatch(message);
  });

  it("with WEBHOOK_ALLOW_PRIVATE: private addresses pass, and http only to loopback; metadata never", () => {
    expect(webhookUrlProblem("http://127.0.0.1:4000/hooks", true)).toBeNull();
    expect(webhookUrlProblem("http://localhost:4000/hooks", true)).toBeNull();
    expect(webhookUrlProblem("http://[::1]:4000/hooks", true)).toBeNull();
    expect(webhookUrlProblem("https://10.0.0.5/hooks", true)).toBeNull();
    expect(webhookUrlProblem("http://10.0.0.5/hooks", true)).toMatch(/http only to a loopback/);
    expect(webhookUrlProblem("http://example.com/hooks", true)).toMatch(/http only to a loopback/);
    expect(webhookUrlProblem("https://169.254.169.254/", true)).toMatch(/metadata/);
  });

  it("with WEBHOOK_ALLOW_PRIVATE: IPv4-compatible IPv6 is still refused, and so is the metadata address spelt as NAT64 or 6to4", () => {
    for (const url of ["https://[::127.0.0.1]/", "https://[::a00:5]/", "https://[::a9fe:a9fe]/"])
      expect(webhookUrlProblem(url, true), url).toMatch(/IPv4-compatible/);
    // Not loopback, so not for http either.
    expect(webhookUrlProblem("http://[::7f00:1]:4000/", true)).toMatch(/http only to a loopback/);
    expect(webhookUrlProblem("https://[64:ff9b::a9fe:a9fe]/", true)).toMatch(/metadata/);
    expect(webhookUrlProblem("https://[2002:a9fe:a9fe::1]/", true)).toMatch(/metadata/);
    expect(webhookUrlProblem("https://[64:ff9b::a00:5]/", true)).toBeNull();
  });

  it("checkWebhookUrl throws an invalid error (422 err_validation) naming url", () => {
    let thrown: unknown;
    try {
      checkWebhookUrl("https://10.0.0.1/", false);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DomainError);
    expect((thrown as DomainError).kind).toBe("invalid");
    expect((thrown as DomainError).details).toEqual({ url: expect.stringMatching(/private/) });
  });
});

describe("addressProblem", () => {
  it("passes public unicast only (without the setting)", () => {
    expect(addressProblem("93.184.216.34", false)).toBeNull();
    expect(addressProblem("2606:4700:4700::1111", false)).toBeNull();
    for (const ip of [
      "127.0.0.1",
      "10.0.0.1",
      "100.100.100.100",
      "169.254.0.1",
      "::1",
      "fe80::1",
      "fd12::1",
      "192.0.2.1",
      "224.0.0.1",
      "64:ff9b::a00:1",
      "::7f00:1",
      "::a9fe:a9fe",
      "::808:808",
      "2002:a00:1::1",
      "2001::1",
      "3fff::1",
    ]) {
      expect(addressProblem(ip, false), ip).not.toBeNull();
    }
  });
});
