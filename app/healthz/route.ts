// GET: liveness; touches nothing, so it also measures the framework's own ceiling in benchmarks.
export function GET() {
  return Response.json({ ok: true }, { headers: { "Cache-Control": "no-store" } });
}

export const dynamic = "force-dynamic";
