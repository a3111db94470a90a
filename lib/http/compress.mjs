// Response compression for the clients that ask for it. Next.js's own (next.config.js `compress`) puts
// the `compression` middleware on every response: it wraps the response's write, end and on, hooks its
// headers, and negotiates Accept-Encoding and the content type, even for a client that accepts no
// encoding, where it then sends the body as it is. Here the same middleware (the `compression` package
// Next.js bundles a copy of, with the defaults Next.js uses) runs only for a request that carries
// Accept-Encoding; the others, most API clients' requests among them, skip it. Its version here (1.8)
// releases its zlib stream itself when a client disconnects mid-answer, as Next.js does for its copy.
import compression from "compression";

const middleware = compression();
const noop = () => {};

/**
 * Compresses `res` as Next.js would (the encoding Accept-Encoding prefers, compressible types only,
 * `Vary: Accept-Encoding`) when `req` names an encoding it accepts; otherwise leaves it alone.
 */
export function compressWhenAccepted(req, res) {
  if (req.headers["accept-encoding"]) middleware(req, res, noop);
}
