// The bare app behind a plain Node HTTP server, as the service's server.mjs runs Next.js (without
// its checks), so the two are measured the same way.
import { createServer } from "node:http";
import next from "next";

const app = next({ dev: false, dir: import.meta.dirname });
const handle = app.getRequestHandler();
await app.prepare();
const server = createServer((req, res) => handle(req, res));
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => console.log(`Listening on http://127.0.0.1:${server.address().port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
