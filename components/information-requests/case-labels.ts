import type { InformationRequestPriority, InformationRequestReasonCode } from "./case-endpoints";

/** Each reason code as a reviewer (and a regulator) reads it. */
export const reasonCodeLabels: Record<InformationRequestReasonCode, string> = {
  insufficient_documents: "Insufficient documents",
  source_of_funds_unverified: "Source of funds unverified",
  identity_mismatch: "Identity mismatch",
  sanctions_match: "Sanctions match",
  adverse_media: "Adverse media",
  no_response: "No response",
  other: "Other",
};

export const priorityLabels: Record<InformationRequestPriority, string> = {
  low: "Low",
  normal: "Normal",
  high: "High",
  urgent: "Urgent",
};
