import { describe, expect, it } from "vitest";
import { DomainError } from "@/lib/errors";
import {
  addressProblem,
  checkWebhookUrl,
  resolveDeliveryAddress,
  webhookUrlProblem,
  WebhookAddressError,
} from "@/lib/webhooks/url-guard";

const strict = { allowPrivate: false };
const relaxed = { allowPrivate: true };

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

describe("resolveDeliveryAddress (at each delivery, after DNS)", () => {
  const lookup = (answers: string[]) => async () =>
    answers.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

  it("returns the resolved address to connect to", async () => {
    await expect(
      resolveDeliveryAddress("https://hooks.example.com/x", { ...strict, lookup: lookup(["93.184.216.34"]) }),
    ).resolves.toEqual({
      address: "93.184.216.34",
      family: 4,
      hostname: "hooks.example.com",
    });
  });

  /** The guard's refusal: its message (what the tenant reads) and its detail (for the service's log). */
  const refusal = async (work: Promise<unknown>) => {
    const error = await work.then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(WebhookAddressError);
    return error as WebhookAddressError;
  };

  it("refuses a name that resolves to a private address, or to any private address among public ones (DNS rebinding), without saying which", async () => {
    for (const [answers, address, why] of [
      [["10.0.0.7"], "10.0.0.7", /private/],
      [["93.184.216.34", "169.254.169.254"], "169.254.169.254", /metadata/],
      [["::ffff:127.0.0.1"], "127.0.0.1", /loopback/],
      [["::7f00:1"], "::7f00:1", /IPv4-compatible/],
      [["::a9fe:a9fe"], "::a9fe:a9fe", /IPv4-compatible/],
      [["64:ff9b::a00:7"], "64:ff9b::a00:7", /NAT64/],
    ] as const) {
      const error = await refusal(
        resolveDeliveryAddress("https://hooks.example.com/x", { ...strict, lookup: lookup([...answers]) }),
      );
      expect(error.message, address).toBe(
        "address not allowed: hooks.example.com resolves to an address webhooks may not reach",
      );
      expect(error.detail, address).toContain(`resolves to ${address}`);
      expect(error.detail, address).toMatch(why);
    }
    const http = await refusal(
      resolveDeliveryAddress("http://localhost:4000/", { ...relaxed, lookup: lookup(["10.20.30.40"]) }),
    );
    expect(http.message).toBe(
      "address not allowed: localhost resolves to an address that is not loopback; http is only for loopback",
    );
    expect(http.detail).toContain("10.20.30.40");
  });

  it("refuses what the URL check refuses, and names that do not resolve, with a WebhookAddressError that names no resolver or address", async () => {
    expect((await refusal(resolveDeliveryAddress("https://192.168.0.1/", strict))).message).toBe(
      "address not allowed: url host 192.168.0.1 is a private address; webhooks go to public addresses only",
    );
    const failing = (message: string, code?: string) => async () => {
      throw Object.assign(new Error(message), { code });
    };
    const notFound = await refusal(
      resolveDeliveryAddress("https://nowhere.invalid/", {
        ...strict,
        lookup: failing("getaddrinfo ENOTFOUND nowhere.invalid", "ENOTFOUND"),
      }),
    );
    expect(notFound.message).toBe("could not resolve nowhere.invalid (ENOTFOUND)");
    // A resolver's own message may name the internal DNS server: kept for the log only.
    const timedOut = await refusal(
      resolveDeliveryAddress("https://slow.example/", {
        ...strict,
        lookup: failing("queryA ETIMEOUT slow.example via 10.0.0.53", "ETIMEOUT"),
      }),
    );
    expect(timedOut.message).toBe("could not resolve slow.example (ETIMEOUT)");
    expect(timedOut.detail).toContain("10.0.0.53");
    expect(
      (
        await refusal(
          resolveDeliveryAddress("https://odd.example/", {
            ...strict,
            lookup: failing("resolver said 10.0.0.53: bad"),
          }),
        )
      ).message,
    ).toBe("could not resolve odd.example");
    expect(
      (await refusal(resolveDeliveryAddress("https://empty.example/", { ...strict, lookup: lookup([]) }))).message,
    ).toBe("could not resolve empty.example (no addresses)");
    const junk = await refusal(
      resolveDeliveryAddress("https://junk.example/", { ...strict, lookup: lookup(["10.0.0.1.5"]) }),
    );
    expect(junk.message).toBe("could not resolve junk.example (an answer is not an IP address)");
  });

  it("with WEBHOOK_ALLOW_PRIVATE: loopback over http, but an http name must resolve to loopback only", async () => {
    await expect(resolveDeliveryAddress("http://127.0.0.1:4000/", relaxed)).resolves.toMatchObject({
      address: "127.0.0.1",
      family: 4,
    });
    await expect(
      resolveDeliveryAddress("http://localhost:4000/", { ...relaxed, lookup: lookup(["::1", "127.0.0.1"]) }),
    ).resolves.toMatchObject({
      address: "::1",
      family: 6,
    });
    await expect(
      resolveDeliveryAddress("http://localhost:4000/", { ...relaxed, lookup: lookup(["10.0.0.1"]) }),
    ).rejects.toThrow(/not loopback/);
  });

  it("looks the name up for real by default", async () => {
    await expect(resolveDeliveryAddress("http://localhost:1/", relaxed)).resolves.toMatchObject({
      hostname: "localhost",
    });
    await expect(resolveDeliveryAddress("https://localhost:1/", strict)).rejects.toThrow(/localhost/);
  });
});
