import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { Duplex } from "node:stream";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { compressWhenAccepted } from "@/lib/http/compress.mjs";
import { OneWriteResponse } from "@/lib/http/one-write-response.mjs";

// Next.js's own way of sending a route's Response (the function its app routes and pages use).
const { pipeToNodeResponse } = createRequire(import.meta.url)("next/dist/server/pipe-readable") as {
  pipeToNodeResponse: (body: ReadableStream<Uint8Array>, res: ServerResponse) => Promise<void>;
};

/** What the server saw of each request: whether the middleware wrapped its response, and the zlib stream behind it once it closed. */
type Seen = { wrapped: boolean; zlib?: Duplex };

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** server.mjs's order: compressWhenAccepted, then the answer as Next.js sends it (or as `respond` writes it). */
async function serve(
  answer: () => Response,
  respond = (response: Response, res: ServerResponse) =>
    void pipeToNodeResponse(response.body!, res).then(() => res.end()),
): Promise<{ port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer({ ServerResponse: OneWriteResponse }, (req: IncomingMessage, res: ServerResponse) => {
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

/** One GET with `headers`; the answer's status line and headers as text, and its body's bytes. */
function get(port: number, headers: string[] = []): Promise<{ head: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, "127.0.0.1", () =>
      socket.write(["GET / HTTP/1.1", "Host: localhost", ...headers, "Connection: close", "", ""].join("\r\n")),
    );
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("end", () => {
      const raw = Buffer.concat(chunks);
      const split = raw.indexOf("\r\n\r\n");
      resolve({ head: raw.subarray(0, split).toString("latin1"), body: dechunk(raw.subarray(split + 4)) });
    });
    socket.on("error", reject);
  });
}

/** A chunked body's bytes (HTTP/1.1 transfer coding). */
function dechunk(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf("\r\n", at);
    const size = parseInt(raw.subarray(at, lineEnd).toString("latin1"), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

const header = (head: string, name: string) => new RegExp(`^${name}: (.*)$`, "im").exec(head)?.[1]?.trim() ?? null;

// A list of 2 KiB: over the middleware's 1 KiB threshold.
const LIST = JSON.stringify({
  object: "list",
  data: Array.from({ length: 40 }, (_, i) => ({ id: `key_${i}`.padEnd(40, "x") })),
});
const json = () => new Response(LIST, { status: 200, headers: { "Content-Type": "application/json; charset=utf-8" } });

describe("compressWhenAccepted", () => {
  it("gzips an answer for a client that accepts gzip, as Next.js's compression did, with Vary: Accept-Encoding", async () => {
    const { port, seen } = await serve(json);
    const { head, body } = await get(port, ["Accept-Encoding: gzip"]);
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(header(head, "Content-Encoding")).toBe("gzip");
    expect(header(head, "Vary")).toMatch(/Accept-Encoding/);
    expect(gunzipSync(body).toString()).toBe(LIST);
    expect(seen[0]!.wrapped).toBe(true);
  });

  it("leaves the response alone for a client that sends no Accept-Encoding: the same bytes, no middleware", async () => {
    const { port, seen } = await serve(json);
    const { head, body } = await get(port);
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(header(head, "Content-Encoding")).toBeNull();
    expect(body.toString()).toBe(LIST);
    // Nothing was put over the response's own methods.
    expect(seen[0]!.wrapped).toBe(false);
  });

  it("sends identity to a client that accepts only identity", async () => {
    const { port } = await serve(json);
    const { head, body } = await get(port, ["Accept-Encoding: identity"]);
    expect(header(head, "Content-Encoding")).toBeNull();
    expect(body.toString()).toBe(LIST);
  });

  it("destroys the zlib stream of an answer whose client disconnects before its end", async () => {
    // An answer whose first part is written and whose end never comes (a render cut short): the client
    // reads the first part, then goes. Nothing ends the middleware's stream: it must release it on close.
    const { port, seen } = await serve(json, (_response, res) => {
      res.write(LIST);
      (res as ServerResponse & { flush(): void }).flush();
    });
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () =>
        socket.write("GET / HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\n\r\n"),
      );
      socket.once("data", () => socket.destroy());
      socket.on("close", () => resolve());
      socket.on("error", reject);
    });
    await expect.poll(() => seen[0]?.zlib?.destroyed, { timeout: 5000 }).toBe(true);
  });
});
