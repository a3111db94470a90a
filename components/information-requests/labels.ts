// How the dashboard names an information request's kinds, statuses, priorities, reason codes and
// transitions: one source for the work queue, the request's page and the settings.

import type {
  InformationRequestKind,
  InformationRequestPriority,
  InformationRequestReasonCode,
  InformationRequestStatus,
} from "@/lib/information-requests/schemas";

export const kindLabels: Record<InformationRequestKind, string> = {
  due_diligence: "Due diligence",
  endorsement: "Endorsement",
};

/** Each status as the status filter names it. */
export const statusLabels: Record<InformationRequestStatus, string> = {
  requested: "Requested",
  on_review: "On review",
  approved: "Approved",
  rejected: "Rejected",
  expired: "Expired",
};

export const priorityLabels: Record<InformationRequestPriority, string> = {
  low: "Low",
  normal: "Normal",
  high: "High",
  urgent: "Urgent",
};

/** Each reason code as a reviewer (and a regulator) reads it, in the pickers, the details and the timeline alike. */
export const reasonCodeLabels: Record<InformationRequestReasonCode, string> = {
  insufficient_documents: "Insufficient documents",
  source_of_funds_unverified: "Source of funds unverified",
  identity_mismatch: "Identity mismatch",
  sanctions_match: "Sanctions match",
  adverse_media: "Adverse media",
  no_response: "No response",
  other: "Other",
};

/** The verb on each transition's button, by the status it moves to. */
export const transitionLabels: Record<InformationRequestStatus, string> = {
  requested: "Reopen",
  on_review: "Start review",
  approved: "Approve",
  rejected: "Reject",
  expired: "Expire",
};
