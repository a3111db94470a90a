import { auditPublicKeyEndpoint } from "@/lib/audit/endpoints";
import { auditPublicKeys } from "@/lib/audit/seal/checkpoints";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: the key signing audit checkpoints now, and every key that signed one of the platform's.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(auditPublicKeyEndpoint, async () => auditPublicKeys()),
});
