"use client";

import { countryWithName, formatShare, isCompleteOwnership, ownerLabel, roleLabels } from "./format";
import type { Beneficiary } from "./hooks";

/** The submission's beneficial owners, largest share first, with the total in the footer. */
export function BeneficiariesTable({ beneficiaries, totalShare }: { beneficiaries: Beneficiary[]; totalShare: number }) {
  return (
    <div className="table-wrap">
      <table className="cards">
        <caption className="visually-hidden">Beneficial owners</caption>
        <thead>
          <tr>
            <th scope="col">Owner</th>
            <th scope="col">Type</th>
            <th scope="col">Country</th>
            <th scope="col">Roles</th>
            <th scope="col" className="num">
              Share
            </th>
          </tr>
        </thead>
        <tbody>
          {beneficiaries.map((owner, index) => (
            <tr key={owner.id} data-testid="beneficiary-row">
              <td data-label="Owner">{ownerLabel(owner, index)}</td>
              <td data-label="Type">{owner.type === "business" ? "Business" : "Individual"}</td>
              <td data-label="Country">{countryWithName(owner.country)}</td>
              <td data-label="Roles">{owner.roles.map((role) => roleLabels[role]).join(", ")}</td>
              <td className="num" data-label="Share">
                {formatShare(owner.shareSize)}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot className="totals">
          <tr>
            <td colSpan={4} className="totals-label">
              <strong>Total</strong>
            </td>
            <td className="num" data-label="Total" data-testid="total-share">
              <span className={`badge ${isCompleteOwnership(totalShare) ? "ok" : "warn"}`}>{formatShare(totalShare)}</span>
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
