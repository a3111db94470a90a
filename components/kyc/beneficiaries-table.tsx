"use client";

import { ListTable } from "@/components/ui/list-table";
import { countryWithName, formatShare, isCompleteOwnership, ownerLabel, roleLabels, typeLabel } from "./format";
import type { Beneficiary } from "./hooks";

/** The submission's beneficial owners, largest share first, with the total in the footer. */
export function BeneficiariesTable({
  beneficiaries,
  totalShare,
}: {
  beneficiaries: Beneficiary[];
  totalShare: number;
}) {
  return (
    <ListTable
      label="Beneficiaries"
      rows={beneficiaries}
      caption="Beneficial owners"
      rowTestId="beneficiary-row"
      columns={[
        { header: "Owner", cell: (owner, index) => ownerLabel(owner, index) },
        { header: "Type", cell: (owner) => typeLabel(owner.type) },
        { header: "Country", cell: (owner) => countryWithName(owner.country) },
        { header: "Roles", cell: (owner) => owner.roles.map((role) => roleLabels[role]).join(", ") },
        { header: "Share", num: true, cell: (owner) => formatShare(owner.shareSize) },
      ]}
      footer={
        <tfoot className="totals">
          <tr>
            <td colSpan={4} className="totals-label">
              <strong>Total</strong>
            </td>
            <td className="num" data-label="Total" data-testid="total-share">
              <span className={`badge ${isCompleteOwnership(totalShare) ? "ok" : "warn"}`}>
                {formatShare(totalShare)}
              </span>
            </td>
          </tr>
        </tfoot>
      }
    />
  );
}
