import { createServer, ServerResponse, type IncomingMessage, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { createRequire } from "node:module";
import { afterEach, describe, expect, it } from "vitest";
import { OneWriteResponse } from "@/lib/http/one-write-response.mjs";

// Next.js's own way of sending a route's Response (the function its app routes and pages use).
const { pipeToNodeResponse } = createRequire(import.meta.url)("next/dist/server/pipe-readable") as {
  pipeToNodeResponse: (body: ReadableStream<Uint8Array>, res: ServerResponse) => Promise<void>;
};

type Sent = { writes: number };

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server answering every request with `answer()` as Next.js would send it, counting the writes to each request's socket. */
async function serve(
  responseClass: typeof ServerResponse<IncomingMessage>,
  answer: () => Response,
): Promise<{ port: number; sent: Sent[] }> {
  const sent: Sent[] = [];
  server = createServer({ ServerResponse: responseClass }, (req, res) => {
    const counted: Sent = { writes: 0 };
    sent.push(counted);
    // Every write to the socket (write() and writev() alike) goes through _writeGeneric.
    const socket = res.socket as Socket & { _writeGeneric: (...args: unknown[]) => unknown };
    const write = socket._writeGeneric;
    socket._writeGeneric = function (...args) {
      counted.writes += 1;
      return write.apply(this, args);
    };
    const response = answer();
    res.statusCode = response.status;
    response.headers.forEach((value, name) => res.setHeader(name, value));
    void pipeToNodeResponse(response.body!, res).then(() => res.end());
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, sent };
}

/** The raw bytes of one request's answer, as they arrive; `onData` sees each arrival. */
function rawGet(port: number, onData: (received: string) => void = () => {}): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = "";
    const socket = connect(port, "127.0.0.1", () =>
      socket.write("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"),
    );
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => onData((received += chunk)));
    socket.on("end", () => resolve(received));
    socket.on("error", reject);
  });
}

const json = () =>
  new Response(JSON.stringify({ object: "list", data: [] }), {
    status: 200,
    headers: { "Content-Type": "application/json; charset=utf-8", "X-Request-Id": "req_1" },
  });

describe("OneWriteResponse", () => {
  it("sends a whole answer, headers and body, in one write", async () => {
    const { port, sent } = await serve(OneWriteResponse, json);
    const received = await rawGet(port);
    expect(sent).toEqual([{ writes: 1 }]);
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(received).toContain("content-type: application/json; charset=utf-8\r\n");
    expect(received).toContain("x-request-id: req_1\r\n");
    expect(received).toMatch(/\r\n\r\n(?:[0-9a-f]+\r\n)?\{"object":"list","data":\[\]\}/);
  });

  it("is needed: with Node's own response Next.js writes the headers on their own first", async () => {
    const { port, sent } = await serve(ServerResponse, json);
    await rawGet(port);
    expect(sent[0]!.writes).toBeGreaterThan(1);
  });

  it("still sends the headers with the first chunk of a streamed body, before the rest exists", async () => {
    let firstArrived: (received: string) => void;
    const first = new Promise<string>((resolve) => (firstArrived = resolve));
    const { port } = await serve(OneWriteResponse, () => {
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode("first,"));
          // The rest is made only once the client has the headers and the first chunk.
          await first;
          controller.enqueue(new TextEncoder().encode("second"));
          controller.close();
        },
      });
      return new Response(body, { status: 201, headers: { "Content-Type": "text/csv" } });
    });
    const received = await rawGet(port, (sofar) => {
      if (sofar.includes("first,")) firstArrived(sofar);
    });
    const beforeTheRest = await first;
    expect(beforeTheRest).toMatch(/^HTTP\/1\.1 201 Created\r\n/);
    expect(beforeTheRest).toContain("content-type: text/csv\r\n");
    expect(beforeTheRest).not.toContain("second");
    expect(received).toContain("second");
  });
});
