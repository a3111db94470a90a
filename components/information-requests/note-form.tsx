"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useState } from "react";
import type { z } from "zod";
import { ErrorMessage } from "@/components/ui/data-state";
import { SubmitButton } from "@/components/ui/submit-button";
import { useApiForm, type ApiForm } from "@/components/use-api-form";
import { api } from "@/lib/client/api";
import { queryKey } from "@/lib/client/query-keys";
import { getInformationRequestEndpoint, listInformationRequestsEndpoint } from "@/lib/information-requests/endpoints";
import { createInformationRequestNoteEndpoint } from "@/lib/information-requests/evidence-endpoints";
import { createNoteInput, NOTE_MAX_LENGTH } from "@/lib/information-requests/evidence-schemas";
import styles from "./case.module.css";

type Input = z.input<typeof createNoteInput>;
type Output = z.output<typeof createNoteInput>;

/** Writes a note on the request (what was asked, and why); it joins the timeline once saved. Notes are never edited. */
export function NoteForm({ requestId }: { requestId: string }) {
  const id = useId();
  const { form, onSubmit, formError, added } = useNoteForm(requestId);
  const length = form.watch("body").length;
  const error = form.formState.errors.body?.message;
  const over = length > NOTE_MAX_LENGTH;
  return (
    <form className="stack" onSubmit={onSubmit} aria-labelledby={`${id}-label`} noValidate>
      <div className="field">
        <label id={`${id}-label`} htmlFor={id}>
          Add a note
        </label>
        <textarea
          id={id}
          rows={4}
          {...form.register("body")}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
        />
        <span id={`${id}-hint`} className={`hint ${styles.counter}`}>
          <span>What you asked, what you found, why. Notes cannot be edited later.</span>
          <span className={over ? "field-error" : undefined}>
            {length.toLocaleString("en-US")} / {NOTE_MAX_LENGTH.toLocaleString("en-US")}
          </span>
        </span>
        {error && (
          <span id={`${id}-error`} className="field-error" role="alert">
            {error}
          </span>
        )}
      </div>
      <ErrorMessage error={formError} />
      {added && (
        <p className="visually-hidden" role="status">
          Note added to the timeline.
        </p>
      )}
      <div>
        <SubmitButton pending={form.formState.isSubmitting} pendingLabel="Adding…">
          Add note
        </SubmitButton>
      </div>
    </form>
  );
}

/** Once a note is added, the request (its timeline) and the list are read afresh, and the box is cleared. */
function useNoteForm(requestId: string) {
  const [added, setAdded] = useState(false);
  const apiForm: ApiForm<Input, Output> = useApiForm<Input, unknown, Output>({
    resolver: zodResolver(createNoteInput),
    defaultValues: { body: "" },
    submit: (body) => api(createInformationRequestNoteEndpoint, { params: { id: requestId }, body }),
    invalidates: [
      queryKey(getInformationRequestEndpoint, { params: { id: requestId } }),
      queryKey(listInformationRequestsEndpoint),
    ],
    beforeSubmit: () => {
      setAdded(false);
      return true;
    },
    onDone: () => {
      apiForm.form.reset({ body: "" });
      setAdded(true);
    },
    fields: ["body"],
  });
  return { ...apiForm, added };
}
