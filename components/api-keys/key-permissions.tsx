"use client";

import { resourceLines, summarisePermissions } from "@/components/api-keys/permissions";
import type { Permission } from "@/lib/auth/permissions";

/** A key's permissions in the list: one phrase, opening to one line per resource ("Recipients: read, write"). */
export function KeyPermissions({ permissions }: { permissions: readonly Permission[] }) {
  const summary = summarisePermissions(permissions);
  if (permissions.length === 0) return <span className="muted">{summary}</span>;
  return (
    <div className="key-permissions">
      <details>
        <summary>{summary}</summary>
        <ul aria-label="Permissions">
          {resourceLines(permissions).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </details>
      {permissions.includes("employees:write") && (
        <span className="badge warn" title="Employees: write">
          Can invite people
        </span>
      )}
    </div>
  );
}
