import { z } from "zod";
import { text } from "@/lib/http/text";
import { normalizeIp } from "@/lib/net/ip";

// The agreement body, shared by the route and the dashboard's agreement form.

export const ipAddressSchema = text()
  .max(64, "must be an IPv4 or IPv6 address")
  .transform((text, context) => {
    const ip = normalizeIp(text);
    if (ip === null) {
      context.addIssue({ code: "custom", message: "must be an IPv4 or IPv6 address such as 203.0.113.7 or 2001:db8::1" });
      return z.NEVER;
    }
    return ip;
  })
  .meta({ description: "The applicant's IP address, stored canonical (IPv4-mapped IPv6 becomes IPv4)." });

export const acceptAgreementInput = z
  .object({
    documentSetId: text()
      .regex(/^[A-Za-z0-9._:-]{1,128}$/, "must be 1-128 characters of letters, digits and . _ : -")
      .meta({ description: "The agreement document set being accepted." }),
    ipAddress: ipAddressSchema.nullish(),
  })
  .meta({ id: "AcceptAgreementInput" });

export const agreementSchema = z
  .object({
    submissionId: z.string(),
    documentSetId: z.string(),
    ipAddress: z.string().nullable(),
    acceptedAt: z.iso.datetime(),
  })
  .meta({ id: "AgreementAcceptance" });

export function presentAgreement(row: { submissionId: string; documentSetId: string; ipAddress: string | null; acceptedAt: Date }) {
  return { submissionId: row.submissionId, documentSetId: row.documentSetId, ipAddress: row.ipAddress, acceptedAt: row.acceptedAt };
}
