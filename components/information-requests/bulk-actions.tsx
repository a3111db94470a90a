"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm, useWatch, type FieldErrors, type UseFormRegister } from "react-hook-form";
import { z } from "zod";
import { useMe } from "@/components/me";
import { ErrorMessage } from "@/components/ui/data-state";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { informationRequestReasonCodes, REASON_MAX_LENGTH } from "@/lib/information-requests/schemas";
import { DECIDED_STATUSES } from "@/lib/client/request-queue";
import { refusalText, useAssignees, useBulkAction, type BulkBody } from "./hooks";
import { reasonCodeLabels, statusLabels, transitionLabels } from "./labels";

/** What one bulk action did to each request it named, for the results panel. */
export type BulkOutcome = { action: string; results: { id: string; ok: boolean; error?: unknown }[] };

type Props = { ids: string[]; onClose: () => void; onDone: (outcome: BulkOutcome) => void };

/** The selection's toolbar: how many are picked, and the bulk actions on them. */
export function BulkBar({ ids, onClear, onDone }: { ids: string[]; onClear: () => void; onDone: Props["onDone"] }) {
  const [open, setOpen] = useState<"assign" | "decide" | null>(null);
  const close = () => setOpen(null);
  const done = (outcome: BulkOutcome) => {
    setOpen(null);
    onDone(outcome);
  };
  return (
    <div className="bulk-bar" role="group" aria-label="Bulk actions">
      <span aria-live="polite">
        <strong>{ids.length}</strong> selected
      </span>
      <button type="button" onClick={() => setOpen("assign")} disabled={ids.length === 0}>
        Assign to…
      </button>
      <button type="button" onClick={() => setOpen("decide")} disabled={ids.length === 0}>
        Decide…
      </button>
      {ids.length > 0 && (
        <button type="button" className="link" onClick={onClear}>
          Clear selection
        </button>
      )}
      <Dialog open={open === "assign"} onClose={close} title={`Assign ${ids.length} requests`}>
        {open === "assign" && <AssignForm ids={ids} onClose={close} onDone={done} />}
      </Dialog>
      <Dialog open={open === "decide"} onClose={close} title={`Decide ${ids.length} requests`}>
        {open === "decide" && <DecideForm ids={ids} onClose={close} onDone={done} />}
      </Dialog>
    </div>
  );
}

const UNASSIGN = "none";

/** Picks the assignee: me, another employee who may decide requests (when the list is readable), or nobody. */
function AssignForm({ ids, onClose, onDone }: Props) {
  const me = useMe();
  const { deciders, canRead } = useAssignees();
  const bulk = useBulkAction();
  const [assignee, setAssignee] = useState(me.id);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const body: BulkBody = { action: "assign", assigneeId: assignee === UNASSIGN ? null : assignee };
    const label = assignee === UNASSIGN ? "Unassign" : `Assign to ${assignee === me.id ? "me" : nameOf(assignee)}`;
    bulk.mutate({ ids, ...body }, { onSuccess: ({ results }) => onDone({ action: label, results }) });
  };
  const nameOf = (id: string) => deciders.find((employee) => employee.id === id)?.name ?? id;
  return (
    <form className="stack" onSubmit={submit} noValidate>
      <Field
        label="Assign to"
        hint={canRead ? "Only employees whose role may decide requests." : "Your role sees no employee list."}
      >
        {(control) => (
          <select {...control} value={assignee} onChange={(event) => setAssignee(event.currentTarget.value)}>
            <option value={me.id}>Me ({me.name})</option>
            {deciders
              .filter((employee) => employee.id !== me.id)
              .map((employee) => (
                <option key={employee.id} value={employee.id}>
                  {employee.name}
                </option>
              ))}
            <option value={UNASSIGN}>Nobody (unassign)</option>
          </select>
        )}
      </Field>
      <ErrorMessage error={bulk.error} />
      <div className="dialog-actions">
        <button type="button" onClick={onClose} disabled={bulk.isPending}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={bulk.isPending}>
          {bulk.isPending ? "Assigning…" : assignee === UNASSIGN ? "Unassign" : "Assign"}
        </button>
      </div>
    </form>
  );
}

const decisionForm = z
  .object({
    status: z.enum(DECIDED_STATUSES),
    reasonCode: z.union([z.enum(informationRequestReasonCodes), z.literal("")]),
    reason: z.string().trim().max(REASON_MAX_LENGTH, `At most ${REASON_MAX_LENGTH} characters.`),
  })
  .superRefine(({ status, reasonCode, reason }, context) => {
    if (status !== "approved" && reasonCode === "")
      context.addIssue({ code: "custom", path: ["reasonCode"], message: "Pick the reason a regulator would read." });
    if (reasonCode === "other" && reason === "")
      context.addIssue({ code: "custom", path: ["reason"], message: "Say why: required with “Other”." });
  });
type DecisionValues = z.input<typeof decisionForm>;

/** The decision for every selected request: a status, the reason code (rejected, expired) and the reason in words. */
function DecideForm({ ids, onClose, onDone }: Props) {
  const bulk = useBulkAction();
  const form = useForm<DecisionValues, unknown, z.output<typeof decisionForm>>({
    resolver: zodResolver(decisionForm),
    defaultValues: { status: "approved", reasonCode: "", reason: "" },
  });
  const { errors } = form.formState;
  const [status, reasonCode] = useWatch({ control: form.control, name: ["status", "reasonCode"] });
  const onSubmit = form.handleSubmit(({ status, reasonCode, reason }) => {
    const body: BulkBody = {
      action: "status",
      status,
      ...(reasonCode ? { reasonCode } : {}),
      ...(reason ? { reason } : {}),
    };
    bulk.mutate(
      { ids, ...body },
      { onSuccess: ({ results }) => onDone({ action: transitionLabels[status], results }) },
    );
  });
  return (
    <form className="stack" onSubmit={(event) => void onSubmit(event)} noValidate>
      <p style={{ margin: 0 }}>
        Each request is decided as if on its own: one that cannot be (four-eyes, already decided) is refused without
        stopping the others. Decisions are final.
      </p>
      <DecisionFields register={form.register} errors={errors} status={status} reasonCode={reasonCode} />
      <ErrorMessage error={bulk.error} />
      <div className="dialog-actions">
        <button type="button" onClick={onClose} disabled={bulk.isPending}>
          Cancel
        </button>
        <button type="submit" className={status === "approved" ? "primary" : "danger"} disabled={bulk.isPending}>
          {bulk.isPending ? "Saving…" : `${transitionLabels[status]} ${ids.length}`}
        </button>
      </div>
    </form>
  );
}

/** The decision, its reason code (required unless approving) and the reason (required with "Other"). */
function DecisionFields({
  register,
  errors,
  status,
  reasonCode,
}: {
  register: UseFormRegister<DecisionValues>;
  errors: FieldErrors<DecisionValues>;
  status: DecisionValues["status"];
  reasonCode: DecisionValues["reasonCode"];
}) {
  return (
    <>
      <Field label="Decision" error={errors.status}>
        {(control) => (
          <select {...control} {...register("status")}>
            {DECIDED_STATUSES.map((value) => (
              <option key={value} value={value}>
                {statusLabels[value]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={status === "approved" ? "Reason code (optional)" : "Reason code"} error={errors.reasonCode}>
        {(control) => (
          <select {...control} {...register("reasonCode")}>
            <option value="">{status === "approved" ? "None" : "Pick one…"}</option>
            {informationRequestReasonCodes.map((code) => (
              <option key={code} value={code}>
                {reasonCodeLabels[code]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        label={reasonCode === "other" ? "Reason" : "Reason (optional)"}
        hint="Kept with each request and shown in its timeline."
        error={errors.reason}
      >
        {(control) => <textarea {...control} rows={3} maxLength={REASON_MAX_LENGTH} {...register("reason")} />}
      </Field>
    </>
  );
}

/** Which requests the last bulk action changed, and which it could not, with the API's reason for each. */
export function BulkResults({ outcome, onDismiss }: { outcome: BulkOutcome; onDismiss: () => void }) {
  const done = outcome.results.filter((result) => result.ok).length;
  const refused = outcome.results.length - done;
  return (
    <section
      className={`alert ${refused ? "warn" : "success"}`}
      aria-label="Results of the bulk action"
      data-testid="bulk-results"
    >
      <div className="row" style={{ justifyContent: "space-between", alignItems: "center" }}>
        <p role="status" style={{ margin: 0 }}>
          <strong>
            {outcome.action}: {done} of {outcome.results.length} done{refused ? `, ${refused} refused` : ""}.
          </strong>
        </p>
        <button type="button" className="link" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
      <ul className="bulk-result-list">
        {outcome.results.map((result) => (
          <li key={result.id} data-testid="bulk-result" data-ok={result.ok}>
            <code>{result.id}</code>: {result.ok ? "done" : <strong>refused: {refusalText(result.error)}</strong>}
          </li>
        ))}
      </ul>
    </section>
  );
}
