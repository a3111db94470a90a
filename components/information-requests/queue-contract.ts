import { z } from "zod";
import { endpointGroup } from "@/lib/contract/endpoint";
import { informationRequestReasonCodes } from "@/lib/information-requests/schemas";

// TEMPORARY: POST /v1/information_requests/bulk in the contract's shape, until the API's own
// definition lands in lib/information-requests/endpoints.ts; then this file goes.

const define = endpointGroup({ tag: "Information requests", auth: "any" });

export const bulkInformationRequestsEndpoint = define("POST /v1/information_requests/bulk", {
  summary: "Act on several information requests",
  permission: "information_requests:write",
  body: z.object({
    ids: z.array(z.string()).min(1).max(100),
    action: z.enum(["assign", "status"]),
    assigneeId: z.string().nullable().optional(),
    status: z.string().optional(),
    reasonCode: z.enum(informationRequestReasonCodes).optional(),
    reason: z.string().optional(),
  }),
  response: z.object({
    results: z.array(
      z.object({
        id: z.string(),
        ok: z.boolean(),
        error: z.object({ code: z.string(), message: z.string() }).optional(),
      }),
    ),
  }),
});
