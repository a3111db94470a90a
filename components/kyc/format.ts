import { countryName } from "@/lib/kyc/countries";
import type { beneficiaryRoles } from "@/lib/kyc/schemas";

const percent = new Intl.NumberFormat("en", { maximumFractionDigits: 4 });

/** 85 -> "85%", 33.3333 -> "33.3333%". */
export const formatShare = (share: number) => `${percent.format(share)}%`;

/** Shares are stored to a millionth of a percent; anything closer to 100 than that is complete. */
export const isCompleteOwnership = (totalShare: number) => Math.abs(totalShare - 100) < 1e-6;

export const roleLabels: Record<(typeof beneficiaryRoles)[number], string> = {
  ubo: "Ultimate beneficial owner",
  director: "Director",
  shareholder: "Shareholder",
  representative: "Representative",
};

/** How a submission or an owner names its kind. */
export const typeLabel = (type: "business" | "individual") => (type === "business" ? "Business" : "Individual");

/** "Germany (DE)"; the bare code when it names no country. */
export const countryWithName = (code: string) => {
  const name = countryName(code);
  return name ? `${name} (${code})` : code;
};

/** The owner's name, or what they are when the submission gave none. */
export const ownerLabel = (owner: { name: string | null; type: string; country: string }, index: number) =>
  owner.name ?? `Unnamed ${owner.type} ${index + 1} (${owner.country})`;
