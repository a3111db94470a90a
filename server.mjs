// The production server: Next.js's request handler behind a plain Node HTTP server, for one reason.
// Route handlers cannot see the TCP peer, and Next.js passes a client's own X-Forwarded-For through
// untouched, so an IP allowlist could be talked past with a header. Here the peer is appended to
// X-Forwarded-For on every request, and lib/http/client-ip.ts reads from the end of that chain.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import next from "next";

globalThis[Symbol.for("platform-compliance.peer-in-xff")] = true;

const port = Number(process.env.PORT ?? 3000); // 0: any free port (tests)
const host = process.env.HOST || "::";
const app = next({ dev: false, dir: import.meta.dirname });
const handle = app.getRequestHandler();
await app.prepare(); // runs instrumentation.ts: validates configuration and migrates the database

const server = createServer((req, res) => {
  const given = req.headers["x-forwarded-for"];
  const chain = Array.isArray(given) ? given.join(", ") : given;
  const peer = req.socket.remoteAddress ?? "";
  req.headers["x-forwarded-for"] = chain ? `${chain}, ${peer}` : peer;
  const id = req.headers["x-request-id"];
  const requestId = typeof id === "string" && /^[A-Za-z0-9._:-]{1,128}$/.test(id) ? id : `req_${randomBytes(12).toString("hex")}`;
  req.headers["x-request-id"] = requestId;
  res.setHeader("X-Request-Id", requestId);
  handle(req, res);
});
server.keepAliveTimeout = 65_000;
server.listen(port, host, () => {
  const { port: actual } = server.address();
  console.log(`Listening on http://${host.includes(":") ? `[${host}]` : host}:${actual}`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 5_000).unref();
  });
}
