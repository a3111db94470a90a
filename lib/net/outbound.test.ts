import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { type LookupAll, OutboundError, outboundFetch, resolveTarget } from "@/lib/net/outbound";

const strict = { allowPrivate: false };
const relaxed = { allowPrivate: true };

/** Under the webhook rules, as deliveries are: WEBHOOK_ALLOW_PRIVATE as `allowPrivate` says. */
const resolveDeliveryAddress = (url: string, { allowPrivate, lookup }: { allowPrivate: boolean; lookup?: LookupAll }) =>
  resolveTarget(url, { label: "webhooks", allowPrivate, allowLoopback: allowPrivate }, lookup);

describe("resolveTarget (before each request, after DNS)", () => {
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
    expect(error).toBeInstanceOf(OutboundError);
    return error as OutboundError;
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

  it("refuses what the URL check refuses, and names that do not resolve, with a OutboundError that names no resolver or address", async () => {
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

describe("outboundFetch (openid-client's fetch)", () => {
  const loopbackAllowed = { label: "single sign-on requests", allowPrivate: false, allowLoopback: true };
  const strictPolicy = { label: "single sign-on requests", allowPrivate: false, allowLoopback: false };

  async function server(handler: http.RequestListener) {
    const paths: string[] = [];
    const listening = http.createServer((request, response) => {
      paths.push(`${request.method} ${request.url}`);
      handler(request, response);
    });
    await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
    const { port } = listening.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}`, paths, close: () => new Promise((done) => listening.close(done)) };
  }

  it("answers a redirect as it is, without following it, and sends a form as its text", async () => {
    const receiver = await server((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => response.writeHead(302, { Location: "/elsewhere", "X-Body": body }).end());
    });
    try {
      const send = outboundFetch(loopbackAllowed, { timeoutMs: 2000, maxBytes: 1024 });
      const answer = await send(`${receiver.url}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "authorization_code", code: "c" }),
      });
      expect(answer.status).toBe(302);
      expect(answer.headers.get("location")).toBe("/elsewhere");
      expect(answer.headers.get("x-body")).toBe("grant_type=authorization_code&code=c");
      expect(receiver.paths).toEqual(["POST /token"]);
    } finally {
      await receiver.close();
    }
  });

  it("refuses loopback under a policy that does not allow it, without connecting; refuses an answer over its size", async () => {
    const receiver = await server((_request, response) => response.end("x".repeat(2000)));
    try {
      const strict = outboundFetch(strictPolicy, { timeoutMs: 2000, maxBytes: 1024 });
      await expect(strict(`${receiver.url}/`, {})).rejects.toThrow(OutboundError);
      expect(receiver.paths).toEqual([]);
      const small = outboundFetch(loopbackAllowed, { timeoutMs: 2000, maxBytes: 1024 });
      await expect(small(`${receiver.url}/`, {})).rejects.toThrow(/larger than 1024 bytes/);
    } finally {
      await receiver.close();
    }
  });
});
