"use client";

import { useCan, useMe } from "@/components/me";
import { useRowAction } from "@/components/ui/confirm-dialog";
import { StatusBadge } from "@/components/ui/format";
import { ApiRequestError } from "@/lib/client/api";
import { informationRequestTransitions, type InformationRequestStatus } from "@/lib/information-requests/schemas";
import { DecisionDialog } from "./decision-dialog";
import { useDecide, type CaseDetail } from "./detail-hooks";
import { transitionLabels } from "./labels";

/**
 * The transitions the state machine allows from the request's current status, each behind a
 * confirmation (with a reason where the decision needs one). A 409 (someone moved the request
 * meanwhile) is shown here and the request is read again. Only for employees who may decide.
 */
export function StatusActions({ request }: { request: CaseDetail }) {
  const me = useMe();
  const can = useCan();
  const move = useDecide(request.id);
  const decision = useRowAction<InformationRequestStatus>();
  if (!can("information_requests:write")) return null;
  const allowed = informationRequestTransitions[request.status];
  // With four-eyes approval, whoever started the review cannot approve or reject it (the API refuses too).
  const fourEyesBlocked =
    me.settings.fourEyesApproval && request.status === "on_review" && request.reviewerId === me.id;
  const offered = allowed.filter((status) => !(fourEyesBlocked && (status === "approved" || status === "rejected")));

  const conflict = move.error instanceof ApiRequestError && move.error.status === 409 ? move.error : null;
  return (
    <section className="card stack" aria-labelledby="actions-heading">
      <h2 id="actions-heading" style={{ margin: 0 }}>
        Actions
      </h2>
      {conflict && (
        <div className="alert error" role="alert">
          Someone else changed this request meanwhile: {conflict.message}. The page now shows its current status; check
          it before acting again.
        </div>
      )}
      {decision.done && !move.error && (
        <div className="alert success" role="status">
          Moved to {decision.done.replaceAll("_", " ")}.
        </div>
      )}
      {fourEyesBlocked && (
        <p className="alert info" style={{ margin: 0 }}>
          You started this review; a second reviewer must decide it (four-eyes approval is on).
        </p>
      )}
      {allowed.length === 0 ? (
        <p className="muted" style={{ margin: 0 }}>
          No further actions: <StatusBadge status={request.status} /> is final.
        </p>
      ) : (
        <div className="row">
          {offered.map((status) => (
            <button
              key={status}
              type="button"
              className={status === "approved" || status === "on_review" ? "primary" : "danger"}
              onClick={() => {
                move.reset();
                decision.ask(status);
              }}
              disabled={move.isPending}
            >
              {transitionLabels[status]}
            </button>
          ))}
        </div>
      )}
      <DecisionDialog request={request} decide={move} {...decision.dialog} />
    </section>
  );
}
