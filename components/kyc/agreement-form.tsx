"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { ErrorMessage } from "@/components/ui/data-state";
import { Field } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/submit-button";
import { useApiForm } from "@/components/use-api-form";
import { api } from "@/lib/client/api";
import { queryKey } from "@/lib/client/query-keys";
import type { ResponseOf } from "@/lib/contract/endpoint";
import { acceptAgreementEndpoint, getKycSubmissionEndpoint } from "@/lib/kyc/endpoints";
import { acceptAgreementInput } from "@/lib/kyc/schemas";

type Accepted = ResponseOf<typeof acceptAgreementEndpoint>;

/** Records the applicant's acceptance of a document set; a set already accepted is refused under its field (409). */
export function AgreementForm({ submissionId }: { submissionId: string }) {
  const [accepted, setAccepted] = useState<Accepted | null>(null);
  const { form, onSubmit, formError } = useApiForm({
    resolver: zodResolver(acceptAgreementInput),
    defaultValues: { documentSetId: "" },
    fields: ["documentSetId", "ipAddress"],
    beforeSubmit: () => {
      setAccepted(null);
      return true;
    },
    submit: (body) => api(acceptAgreementEndpoint, { params: { submissionId }, body }),
    invalidates: [queryKey(getKycSubmissionEndpoint, { params: { submissionId } })],
    onDone: (result) => {
      setAccepted(result);
      form.reset();
    },
  });
  const { errors, isSubmitting } = form.formState;
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
        <Field
          label="Document set ID"
          autoComplete="off"
          hint="The agreement document set the applicant accepted, e.g. terms-2026-01."
          error={errors.documentSetId}
          {...form.register("documentSetId")}
        />
        <Field
          label="Applicant IP address (optional)"
          autoComplete="off"
          hint="IPv4 or IPv6, as seen when they accepted."
          error={errors.ipAddress}
          {...form.register("ipAddress", {
            setValueAs: (value: string | undefined) => (value?.trim() ? value : undefined),
          })}
        />
      </div>
      <div>
        <SubmitButton pending={isSubmitting} pendingLabel="Recording…">
          Record acceptance
        </SubmitButton>
      </div>
    </form>
  );
}
