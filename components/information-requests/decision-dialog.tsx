"use client";

import { useEffect, useId, useState } from "react";
import type { RowDialogProps } from "@/components/ui/confirm-dialog";
import { ErrorMessage } from "@/components/ui/data-state";
import { Dialog } from "@/components/ui/dialog";
import { ApiRequestError } from "@/lib/client/api";
import {
  REASON_MAX_LENGTH,
  statusesNeedingReason,
  type InformationRequestStatus,
} from "@/lib/information-requests/schemas";
import { transitionLabels, type InformationRequestDetail, type useMoveInformationRequest } from "./hooks";

const consequences: Partial<Record<InformationRequestStatus, string>> = {
  on_review: "It moves from requested to on review, so others can see someone is working on it.",
  approved: "Approved is final: the request cannot be moved again.",
  rejected: "Rejected is final: the request cannot be moved again.",
  expired: "Expired is final: the request cannot be moved again.",
};

/** Confirms one transition; decisions take a reason (required to reject or expire, optional to approve). */
export function DecisionDialog({
  request,
  move,
  row: target,
  onClose,
  onDone: onMoved,
}: {
  request: InformationRequestDetail;
  move: ReturnType<typeof useMoveInformationRequest>;
} & RowDialogProps<InformationRequestStatus>) {
  const reasonId = useId();
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState<string | null>(null);
  // Each new target starts with an empty reason; the dialog stays mounted between targets.
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setReason("");
    setReasonError(null);
  }, [target]);
  if (!target) return null;
  const needsReason = statusesNeedingReason.includes(target);
  const takesReason = target !== "on_review";

  const confirm = () => {
    const trimmed = reason.trim();
    if (needsReason && trimmed === "")
      return setReasonError(
        `Say why you ${transitionLabels[target].toLowerCase()} it: the reason is kept with the decision.`,
      );
    if (trimmed.length > REASON_MAX_LENGTH) return setReasonError(`At most ${REASON_MAX_LENGTH} characters.`);
    setReasonError(null);
    move.mutate(
      {
        status: target,
        // The reason typed here is the decider's own words: reason code `other` (required to reject or expire).
        reasonCode: needsReason ? "other" : undefined,
        reason: takesReason && trimmed ? trimmed : undefined,
      },
      {
        onSuccess: () => onMoved(target),
        onError: (error) => {
          if (error instanceof ApiRequestError && error.details.reason) setReasonError(error.details.reason);
          if (error instanceof ApiRequestError && error.status === 409) onClose();
        },
      },
    );
  };
  const danger = target === "rejected" || target === "expired";
  const otherError =
    move.error && !(move.error instanceof ApiRequestError && (move.error.status === 409 || move.error.details.reason))
      ? move.error
      : null;
  return (
    <Dialog open onClose={onClose} title={`${transitionLabels[target]}?`}>
      <p style={{ margin: 0 }}>
        {transitionLabels[target]} information request <code>{request.id}</code>? {consequences[target]}
      </p>
      {takesReason && (
        <div className="field">
          <label htmlFor={reasonId}>{needsReason ? "Reason" : "Reason (optional)"}</label>
          <textarea
            id={reasonId}
            rows={4}
            value={reason}
            maxLength={REASON_MAX_LENGTH}
            onChange={(event) => setReason(event.target.value)}
            aria-invalid={reasonError ? true : undefined}
            aria-describedby={`${reasonId}-hint${reasonError ? ` ${reasonId}-error` : ""}`}
          />
          <span id={`${reasonId}-hint`} className="hint">
            Kept with the request and shown in its history{needsReason ? "" : " (for example, what you checked)"}.
          </span>
          {reasonError && (
            <span id={`${reasonId}-error`} className="field-error" role="alert">
              {reasonError}
            </span>
          )}
        </div>
      )}
      <ErrorMessage error={otherError} />
      <div className="dialog-actions">
        <button type="button" onClick={onClose} disabled={move.isPending}>
          Cancel
        </button>
        <button
          type="button"
          className={danger ? "danger" : "primary"}
          onClick={confirm}
          disabled={move.isPending}
          autoFocus={!takesReason}
        >
          {move.isPending ? "Saving…" : `Yes, ${transitionLabels[target].toLowerCase()}`}
        </button>
      </div>
    </Dialog>
  );
}
