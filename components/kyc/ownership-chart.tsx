"use client";

import { formatShare, isCompleteOwnership, ownerLabel } from "./format";
import type { Beneficiary } from "./hooks";

/**
 * Each owner's share as a labelled bar, plus the part no owner accounts for. Screen readers get the
 * whole picture from the figure's label (role="img"), the table beside it has the same numbers.
 */
export function OwnershipChart({ beneficiaries, totalShare }: { beneficiaries: Beneficiary[]; totalShare: number }) {
  const missing = Math.max(0, Math.round((100 - totalShare) * 1e6) / 1e6);
  const parts = beneficiaries.map((owner, index) => `${ownerLabel(owner, index)} ${formatShare(owner.shareSize)}`);
  if (missing > 0) parts.push(`not accounted for ${formatShare(missing)}`);
  const summary = `Ownership shares: ${parts.join(", ")}. Total ${formatShare(totalShare)}${isCompleteOwnership(totalShare) ? "" : ", not 100%"}.`;
  return (
    <figure className="share-chart" role="img" aria-label={summary}>
      {beneficiaries.map((owner, index) => (
        <div className="share-row" key={owner.id}>
          <span className="share-label">{ownerLabel(owner, index)}</span>
          <span className="share-track">
            <span className="share-fill" style={{ width: `${Math.min(100, owner.shareSize)}%` }} />
          </span>
          <span className="share-value">{formatShare(owner.shareSize)}</span>
        </div>
      ))}
      {missing > 0 && (
        <div className="share-row missing">
          <span className="share-label">Not accounted for</span>
          <span className="share-track">
            <span className="share-fill" style={{ width: `${missing}%` }} />
          </span>
          <span className="share-value">{formatShare(missing)}</span>
        </div>
      )}
    </figure>
  );
}
