import { readiness } from "@/lib/observability/readiness";

// GET: readiness, for a load balancer or an orchestrator: 200 while this instance should get requests,
// 503 when its database does not answer or once it is stopping (docs/operations.md, Health and signals).
// Not audited, rate limited or logged per request.
export async function GET() {
  const state = await readiness();
  return Response.json(state, {
    status: state.status === "ready" ? 200 : 503,
    headers: { "Cache-Control": "no-store" },
  });
}

export const dynamic = "force-dynamic";
