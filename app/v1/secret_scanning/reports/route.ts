import { answerLeakReport } from "@/lib/api-keys/leak-reports";
import { leakReportEndpoint } from "@/lib/api-keys/endpoints";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: a secret-scanning partner program (GitHub's) reports keys it found public; signed, not authenticated.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(leakReportEndpoint, ({ rawBody, request, ip, requestId }) =>
    answerLeakReport(
      {
        body: rawBody,
        identifier: request.headers.get("github-public-key-identifier"),
        signature: request.headers.get("github-public-key-signature"),
      },
      { ip, requestId },
    ),
  ),
});
