import { z } from "zod";
import { pageQuerySchema } from "@/lib/http/pagination";
import { kycSubmissionSchema } from "@/lib/kyc/schemas";

export const informationRequestKinds = ["due_diligence", "endorsement"] as const;
export const informationRequestStatuses = ["requested", "on_review", "approved", "rejected", "expired"] as const;

export type InformationRequestKind = (typeof informationRequestKinds)[number];
export type InformationRequestStatus = (typeof informationRequestStatuses)[number];

/** The contract's state machine; anything not listed (including staying put) is a 409. */
export const informationRequestTransitions: Record<InformationRequestStatus, readonly InformationRequestStatus[]> = {
  requested: ["on_review", "expired"],
  on_review: ["approved", "rejected", "expired"],
  approved: [],
  rejected: [],
  expired: [],
};

export const canTransition = (from: InformationRequestStatus, to: InformationRequestStatus) =>
  informationRequestTransitions[from].includes(to);

export const informationRequestParams = z.object({ id: z.string().regex(/^ir_[a-z0-9]{1,64}$/) });
export const transferParams = z.object({ id: z.string().regex(/^tr_[a-z0-9]{1,64}$/) });

const dateHint = "must be a date (2026-11-01) or an ISO-8601 date-time (2026-11-01T13:00:00Z)";

/**
 * A createdAt bound: a calendar date or a date-time. A date stands for the whole UTC day, so as a
 * start it means 00:00:00.000 and as an end 23:59:59.999; both bounds are inclusive.
 */
const dateBound = (edge: "start" | "end") =>
  z
    .string()
    .transform((text, context) => {
      if (z.iso.date().safeParse(text).success) {
        return new Date(`${text}T${edge === "start" ? "00:00:00.000" : "23:59:59.999"}Z`);
      }
      if (z.iso.datetime({ offset: true }).safeParse(text).success) return new Date(text);
      context.addIssue({ code: "custom", message: dateHint });
      return z.NEVER;
    })
    .meta({
      description:
        edge === "start"
          ? "Inclusive lower bound on createdAt: a date (from 00:00 UTC that day) or an ISO-8601 date-time."
          : "Inclusive upper bound on createdAt: a date (to the end of that UTC day) or an ISO-8601 date-time.",
    });

export const listInformationRequestsQuery = pageQuerySchema
  .extend({
    kind: z.enum(informationRequestKinds).optional(),
    startDate: dateBound("start").optional(),
    endDate: dateBound("end").optional(),
  })
  .refine((query) => !query.startDate || !query.endDate || query.startDate <= query.endDate, {
    path: ["startDate"],
    message: "must not be after endDate",
  });

export type ListInformationRequestsQuery = z.output<typeof listInformationRequestsQuery>;

export const informationRequestSchema = z
  .object({
    id: z.string(),
    kind: z.enum(informationRequestKinds),
    status: z.enum(informationRequestStatuses),
    transferId: z.string().nullable(),
    submissionId: z.string().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "InformationRequest" });

export const informationRequestDetailSchema = informationRequestSchema
  .extend({ submission: kycSubmissionSchema.nullable().meta({ description: "The linked KYC submission, or null." }) })
  .meta({ id: "InformationRequestWithSubmission" });

export const informationRequestPageSchema = z
  .object({ items: z.array(informationRequestSchema), next: z.string().nullable() })
  .meta({ id: "InformationRequestPage" });

export const updateInformationRequestStatusInput = z
  .object({ status: z.enum(informationRequestStatuses) })
  .meta({ id: "UpdateInformationRequestStatusInput" });

export const raiseInformationRequestInput = z
  .object({
    kind: z.enum(informationRequestKinds),
    transferId: z.string().regex(/^tr_[a-z0-9]{1,64}$/, "must be a transfer id (tr_...)").optional(),
    submissionId: z.string().regex(/^sub_[a-z0-9]{1,64}$/, "must be a KYC submission id (sub_...)").optional(),
  })
  .meta({ id: "RaiseInformationRequestInput" });

export type InformationRequestRow = {
  id: string;
  kind: string;
  status: string;
  transferId: string | null;
  submissionId: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export function presentInformationRequest(row: InformationRequestRow) {
  return {
    id: row.id,
    kind: row.kind as InformationRequestKind,
    status: row.status as InformationRequestStatus,
    transferId: row.transferId,
    submissionId: row.submissionId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
