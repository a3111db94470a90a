"use client";

import { useEffect, useId, useState } from "react";
import type { RowDialogProps } from "@/components/ui/confirm-dialog";
import { ErrorMessage } from "@/components/ui/data-state";
import { Dialog } from "@/components/ui/dialog";
import { ApiRequestError } from "@/lib/client/api";
import {
  informationRequestReasonCodes,
  REASON_MAX_LENGTH,
  statusesNeedingReason,
  type InformationRequestReasonCode,
  type InformationRequestStatus,
} from "@/lib/information-requests/schemas";
import type { CaseDetail, useDecide } from "./detail-hooks";
import { reasonCodeLabels, transitionLabels } from "./labels";

const consequences: Partial<Record<InformationRequestStatus, string>> = {
  on_review: "It moves from requested to on review, so others can see someone is working on it.",
  approved: "Approved is final: the request cannot be moved again.",
  rejected: "Rejected is final: the request cannot be moved again.",
  expired: "Expired is final: the request cannot be moved again.",
};

/** The four-eyes refusal: a 403 that is not about the role's permissions (the API names the rule). */
const isFourEyesRefusal = (error: unknown) =>
  error instanceof ApiRequestError && error.status === 403 && /four-eyes/i.test(error.message);

/** Rejecting or expiring takes a reason code; every move but to "on review" takes a reason. */
const takesCode = (target: InformationRequestStatus) => statusesNeedingReason.includes(target);
const takesReason = (target: InformationRequestStatus) => target !== "on_review";

type Errors = { reasonCode?: string; reason?: string };

/** What the form lacks before it is sent: a reason code to reject or expire, a reason with "Other". */
function check(target: InformationRequestStatus, reasonCode: string, reason: string): Errors {
  const verb = transitionLabels[target].toLowerCase();
  const errors: Errors = {};
  if (takesCode(target) && !reasonCode)
    errors.reasonCode = `Choose why you ${verb} it: the reason code is kept with the decision.`;
  if (reasonCode === "other" && reason.trim() === "")
    errors.reason = `Say why you ${verb} it: with "Other", the reason is required.`;
  if (reason.trim().length > REASON_MAX_LENGTH) errors.reason = `At most ${REASON_MAX_LENGTH} characters.`;
  return errors;
}

/**
 * Confirms one transition. Rejecting or expiring takes a reason code (the terms a regulator
 * recognises) and, with "Other", a reason in words; approving takes an optional reason.
 */
export function DecisionDialog({
  request,
  decide,
  row: target,
  onClose,
  onDone: onMoved,
}: {
  request: CaseDetail;
  decide: ReturnType<typeof useDecide>;
} & RowDialogProps<InformationRequestStatus>) {
  const id = useId();
  const { reasonCode, setReasonCode, reason, setReason, errors, confirm } = useDecisionForm(target, decide, {
    onMoved,
    onClose,
  });
  if (!target) return null;
  const danger = target === "rejected" || target === "expired";
  return (
    <Dialog open onClose={onClose} title={`${transitionLabels[target]}?`}>
      <p style={{ margin: 0 }}>
        {transitionLabels[target]} information request <code>{request.id}</code>? {consequences[target]}
      </p>
      {takesCode(target) && (
        <ReasonCodeField id={`${id}-code`} value={reasonCode} onChange={setReasonCode} error={errors.reasonCode} />
      )}
      {takesReason(target) && (
        <ReasonField
          id={`${id}-reason`}
          required={reasonCode === "other"}
          value={reason}
          onChange={setReason}
          error={errors.reason}
        />
      )}
      <DecisionRefusal refusal={decide.error} />
      <div className="dialog-actions">
        <button type="button" onClick={onClose} disabled={decide.isPending}>
          Cancel
        </button>
        <button
          type="button"
          className={danger ? "danger" : "primary"}
          onClick={() => confirm(target)}
          disabled={decide.isPending}
          autoFocus={!takesReason(target)}
        >
          {decide.isPending ? "Saving…" : `Yes, ${transitionLabels[target].toLowerCase()}`}
        </button>
      </div>
    </Dialog>
  );
}

/** The reason code and reason being written, their problems, and the decision sent with them. */
function useDecisionForm(
  target: InformationRequestStatus | null,
  decide: ReturnType<typeof useDecide>,
  { onMoved, onClose }: { onMoved: (target: InformationRequestStatus) => void; onClose: () => void },
) {
  const [reasonCode, setReasonCode] = useState("");
  const [reason, setReason] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  // Each new target starts empty; the dialog stays mounted between targets.
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setReasonCode("");
    setReason("");
    setErrors({});
  }, [target]);
  const confirm = (target: InformationRequestStatus) => {
    const found = check(target, reasonCode, reason);
    setErrors(found);
    if (found.reasonCode || found.reason) return;
    const trimmed = reason.trim();
    decide.mutate(
      {
        status: target,
        reasonCode: takesCode(target) ? (reasonCode as InformationRequestReasonCode) : undefined,
        reason: takesReason(target) && trimmed ? trimmed : undefined,
      },
      {
        onSuccess: () => onMoved(target),
        onError: (error) => {
          if (error instanceof ApiRequestError && (error.details.reason || error.details.reasonCode))
            setErrors({ reason: error.details.reason, reasonCode: error.details.reasonCode });
          if (error instanceof ApiRequestError && error.status === 409) onClose();
        },
      },
    );
  };
  return { reasonCode, setReasonCode, reason, setReason, errors, confirm };
}

/** The API's refusal, unless it is shown under a field or closed the dialog (409). */
function DecisionRefusal({ refusal }: { refusal: unknown }) {
  const fieldRefusal =
    refusal instanceof ApiRequestError &&
    (refusal.status === 409 || refusal.details.reason || refusal.details.reasonCode);
  return isFourEyesRefusal(refusal) ? (
    <div className="alert error" role="alert">
      You started this review; a second reviewer must decide it. (Four-eyes approval is on.)
    </div>
  ) : (
    <ErrorMessage error={fieldRefusal ? null : refusal} />
  );
}

function ReasonCodeField({
  id,
  value,
  onChange,
  error,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>Reason code</label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
      >
        <option value="">Choose a reason…</option>
        {informationRequestReasonCodes.map((code) => (
          <option key={code} value={code}>
            {reasonCodeLabels[code]}
          </option>
        ))}
      </select>
      <span id={`${id}-hint`} className="hint">
        Shown with the decision, in reports and in exports.
      </span>
      {error && (
        <span id={`${id}-error`} className="field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

function ReasonField({
  id,
  required,
  value,
  onChange,
  error,
}: {
  id: string;
  required: boolean;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{required ? "Reason" : "Reason (optional)"}</label>
      <textarea
        id={id}
        rows={4}
        value={value}
        maxLength={REASON_MAX_LENGTH}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
      />
      <span id={`${id}-hint`} className="hint">
        In your words, kept with the decision and shown in the request&apos;s timeline.
      </span>
      {error && (
        <span id={`${id}-error`} className="field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
