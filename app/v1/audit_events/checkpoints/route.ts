import { listAuditCheckpointsEndpoint } from "@/lib/audit/endpoints";
import { listCheckpoints } from "@/lib/audit/seal/checkpoints";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: the platform's signed audit checkpoints, cursor-paginated by seq.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listAuditCheckpointsEndpoint, async ({ query }) => listCheckpoints(query)),
});
