// A child process of app/v1/api_keys/revocation-across-instances.test.ts: another instance of the service
// on the same database, with memory of its own. It says "ready" once loaded, then answers each line of
// stdin, {"op":"use"|"revoke","secret":...,"keyId":...}, with the status of that request on a line.
import { createInterface } from "node:readline";
import { GET } from "@/app/v1/api_keys/route";
import { DELETE } from "@/app/v1/api_keys/[key]/route";
import { PEER_MARK } from "@/lib/http/client-ip";

// As server.mjs does: the last X-Forwarded-For entry is the TCP peer.
(globalThis as Record<symbol, unknown>)[PEER_MARK] = true;

type Order = { op: "use" | "revoke"; secret: string; keyId: string };

async function perform({ op, secret, keyId }: Order) {
  const headers = { host: "localhost:3000", "x-forwarded-for": "127.0.0.1", authorization: `Bearer ${secret}` };
  if (op === "use") {
    return GET(new Request("http://localhost:3000/v1/api_keys", { headers }), { params: Promise.resolve({}) });
  }
  return DELETE(new Request(`http://localhost:3000/v1/api_keys/${keyId}`, { method: "DELETE", headers }), {
    params: Promise.resolve({ key: keyId }),
  });
}

// One order at a time, in the order sent (tsx loads this file as CommonJS: no top-level await).
let done: Promise<unknown> = Promise.resolve();
createInterface({ input: process.stdin }).on("line", (line) => {
  done = done.then(async () => {
    const response = await perform(JSON.parse(line) as Order);
    process.stdout.write(`${JSON.stringify({ status: response.status })}\n`);
  });
});
process.stdout.write("ready\n");
