"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { ErrorMessage } from "@/components/ui/data-state";
import { Field } from "@/components/ui/field";
import { api, applyFieldErrors } from "@/lib/client/api";
import { acceptAgreementInput, type agreementSchema } from "@/lib/kyc/schemas";
import { kycSubmissionKey } from "./hooks";

type Values = z.input<typeof acceptAgreementInput>;
type Accepted = z.output<typeof agreementSchema>;

/** Records the applicant's acceptance of a document set; a set already accepted is refused under its field (409). */
export function AgreementForm({ submissionId }: { submissionId: string }) {
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const [accepted, setAccepted] = useState<Accepted | null>(null);
  const form = useForm<Values, unknown, z.output<typeof acceptAgreementInput>>({
    resolver: zodResolver(acceptAgreementInput),
    defaultValues: { documentSetId: "" },
  });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    setAccepted(null);
    try {
      const result = await api<Accepted>(`/v1/kyc/submissions/${encodeURIComponent(submissionId)}/agreements`, { method: "POST", body: values });
      setAccepted(result);
      form.reset();
      await queryClient.invalidateQueries({ queryKey: kycSubmissionKey(submissionId) });
    } catch (error) {
      setFormError(applyFieldErrors(error, form.setError, ["documentSetId", "ipAddress"]));
    }
  });
  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-labelledby="accept-agreement-heading">
      <h3 id="accept-agreement-heading" style={{ margin: 0 }}>
        Record an acceptance
      </h3>
      {accepted && (
        <div className="alert success" role="status">
          Accepted document set <code>{accepted.documentSetId}</code>.
        </div>
      )}
      <ErrorMessage error={formError} />
      <div className="form-grid">
        <Field label="Document set ID" autoComplete="off" hint="The agreement document set the applicant accepted, e.g. terms-2026-01." error={errors.documentSetId} {...form.register("documentSetId")} />
        <Field
          label="Applicant IP address (optional)"
          autoComplete="off"
          hint="IPv4 or IPv6, as seen when they accepted."
          error={errors.ipAddress}
          {...form.register("ipAddress", { setValueAs: (value: string | undefined) => (value?.trim() ? value : undefined) })}
        />
      </div>
      <div>
        <button type="submit" className="primary" disabled={isSubmitting}>
          {isSubmitting ? "Recording…" : "Record acceptance"}
        </button>
      </div>
    </form>
  );
}
