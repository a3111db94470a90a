import {
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { Duplex, Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { compressWhenAccepted } from "@/lib/http/compress.mjs";

/** A route's Response body written to the Node response chunk by chunk, as a server sends one. */
const sendBody = (response: Response, res: ServerResponse) =>
  void pipeline(Readable.fromWeb(response.body! as NodeReadableStream<Uint8Array>), res);

/** What the server saw of each request: whether the middleware wrapped its response, and the zlib stream behind it once it closed. */
type Seen = { wrapped: boolean; zlib?: Duplex };

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** server.mjs's order: compressWhenAccepted, then the answer's body written out (or as `respond` writes it). */
async function serve(answer: () => Response, respond = sendBody): Promise<{ port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    compressWhenAccepted(req, res);
    const noted: Seen = { wrapped: Object.hasOwn(res, "write") };
    seen.push(noted);
    const response = answer();
    res.statusCode = response.status;
    response.headers.forEach((value, name) => res.setHeader(name, value));
    respond(response, res);
    // After the middleware's own close listener (where it releases its zlib stream): its res.on("drain") hands that stream back.
    res.once("close", () => {
      const stream = res.on("drain", () => {});
      if (stream instanceof Duplex) noted.zlib = stream;
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, seen };
}

/** One GET with `headers` through Node's HTTP client (which leaves the body encoded as sent): its status, headers and body's bytes. */
function get(
  port: number,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request({ host: "127.0.0.1", port, path: "/", headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

// A list of 2 KiB: over the middleware's 1 KiB threshold.
const LIST = JSON.stringify({
  object: "list",
  data: Array.from({ length: 40 }, (_, i) => ({ id: `key_${i}`.padEnd(40, "x") })),
});
const json = () => new Response(LIST, { status: 200, headers: { "Content-Type": "application/json; charset=utf-8" } });

describe("compressWhenAccepted", () => {
  it("gzips an answer for a client that accepts gzip, as Next.js's compression did, with Vary: Accept-Encoding", async () => {
    const { port, seen } = await serve(json);
    const { status, headers, body } = await get(port, { "Accept-Encoding": "gzip" });
    expect(status).toBe(200);
    expect(headers["content-encoding"]).toBe("gzip");
    expect(headers.vary).toMatch(/Accept-Encoding/);
    expect(gunzipSync(body).toString()).toBe(LIST);
    expect(seen[0]!.wrapped).toBe(true);
  });

  it("leaves the response alone for a client that sends no Accept-Encoding: the same bytes, no middleware", async () => {
    const { port, seen } = await serve(json);
    const { status, headers, body } = await get(port);
    expect(status).toBe(200);
    expect(headers["content-encoding"]).toBeUndefined();
    expect(body.toString()).toBe(LIST);
    // Nothing was put over the response's own methods.
    expect(seen[0]!.wrapped).toBe(false);
  });

  it("sends identity to a client that accepts only identity", async () => {
    const { port } = await serve(json);
    const { headers, body } = await get(port, { "Accept-Encoding": "identity" });
    expect(headers["content-encoding"]).toBeUndefined();
    expect(body.toString()).toBe(LIST);
  });

  it("destroys the zlib stream of an answer whose client disconnects before its end", async () => {
    // An answer whose first part is written and whose end never comes (a render cut short): the client
    // reads the first part, then goes. Nothing ends the middleware's stream: it must release it on close.
    const { port, seen } = await serve(json, (_response, res) => {
      res.write(LIST);
      (res as ServerResponse & { flush(): void }).flush();
    });
    await new Promise<void>((resolve) => {
      const sent = request({ host: "127.0.0.1", port, path: "/", headers: { "Accept-Encoding": "gzip" } }, (response) =>
        response.once("data", () => sent.destroy()),
      );
      sent.on("close", () => resolve());
      sent.on("error", () => {});
      sent.end();
    });
    await expect.poll(() => seen[0]?.zlib?.destroyed, { timeout: 5000 }).toBe(true);
  });
});
