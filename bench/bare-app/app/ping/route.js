// The trivial route of a bare Next.js app: what one request costs the framework alone. The bench
// compares the service's routes to it (server CPU time per request).
export const dynamic = "force-dynamic";

export function GET() {
  return new Response("ok", { headers: { "Content-Type": "text/plain" } });
}
