// GET: liveness, 200 while the process serves; touches no database (readiness is GET /readyz), so it also
// measures the framework's own ceiling in benchmarks.
export function GET() {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}

export const dynamic = "force-dynamic";
