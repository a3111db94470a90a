"use client";

import { useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import { StatusBadge } from "@/components/ui/format";
import { ApiRequestError } from "@/lib/client/api";
import { informationRequestTransitions, type InformationRequestStatus } from "@/lib/information-requests/schemas";
import { transitionLabels, useMoveInformationRequest, type InformationRequestDetail } from "./hooks";

const consequences: Partial<Record<InformationRequestStatus, string>> = {
  on_review: "It moves from requested to on review, so others can see someone is working on it.",
  approved: "Approved is final: the request cannot be moved again.",
  rejected: "Rejected is final: the request cannot be moved again.",
  expired: "Expired is final: the request cannot be moved again.",
};

/**
 * The transitions the state machine allows from the request's current status, each behind a
 * confirmation. A 409 (someone moved the request meanwhile) is shown here and the request is read again.
 */
export function StatusActions({ request }: { request: InformationRequestDetail }) {
  const move = useMoveInformationRequest(request.id);
  const [target, setTarget] = useState<InformationRequestStatus | null>(null);
  const [done, setDone] = useState<InformationRequestStatus | null>(null);
  const allowed = informationRequestTransitions[request.status];

  const confirm = () => {
    if (!target) return;
    const status = target;
    setDone(null);
    move.mutate(status, {
      onSuccess: () => setDone(status),
      onSettled: () => setTarget(null),
    });
  };

  const conflict = move.error instanceof ApiRequestError && move.error.status === 409 ? move.error : null;
  return (
    <section className="card stack" aria-labelledby="actions-heading">
      <h2 id="actions-heading" style={{ margin: 0 }}>
        Actions
      </h2>
      {conflict && (
        <div className="alert error" role="alert">
          Someone else changed this request meanwhile: {conflict.message}. The page now shows its current status; check it before acting again.
        </div>
      )}
      {move.error && !conflict && (
        <div className="alert error" role="alert">
          {move.error instanceof Error ? move.error.message : "The request could not be moved."}
        </div>
      )}
      {done && !move.error && (
        <div className="alert success" role="status">
          Moved to {done.replaceAll("_", " ")}.
        </div>
      )}
      {allowed.length === 0 ? (
        <p className="muted" style={{ margin: 0 }}>
          No further actions: <StatusBadge status={request.status} /> is final.
        </p>
      ) : (
        <div className="row">
          {allowed.map((status) => (
            <button
              key={status}
              type="button"
              className={status === "approved" || status === "on_review" ? "primary" : "danger"}
              onClick={() => {
                move.reset();
                setTarget(status);
              }}
              disabled={move.isPending}
            >
              {transitionLabels[status]}
            </button>
          ))}
        </div>
      )}
      <Dialog open={target !== null} onClose={() => setTarget(null)} title={target ? `${transitionLabels[target]}?` : "Confirm"}>
        {target && (
          <>
            <p style={{ margin: 0 }}>
              {transitionLabels[target]} information request <code>{request.id}</code>? {consequences[target]}
            </p>
            <div className="dialog-actions">
              <button type="button" onClick={() => setTarget(null)} disabled={move.isPending}>
                Cancel
              </button>
              <button type="button" className={target === "approved" || target === "on_review" ? "primary" : "danger"} onClick={confirm} disabled={move.isPending} autoFocus>
                {move.isPending ? "Saving…" : `Yes, ${transitionLabels[target].toLowerCase()}`}
              </button>
            </div>
          </>
        )}
      </Dialog>
    </section>
  );
}
