"use client";

import { useId } from "react";
import {
  PERMISSION_PRESETS,
  groupPermissions,
  offerablePermissions,
  permissionLabel,
  presetOf,
  type ResourcePermissions,
} from "@/components/api-keys/permissions";
import { ROLE_LABELS } from "@/components/employees/roles";
import { KEY_PERMISSIONS, sortPermissions, type Permission, type Role } from "@/lib/auth/permissions";

/**
 * The permissions of a new key as a checklist, one line per resource. Everything a key may hold is
 * listed; what the employee's role lacks is shown greyed out, since the API refuses to hand out more
 * than the issuer holds.
 */
export function PermissionPicker({
  value,
  onChange,
  held,
  role,
  error,
}: {
  value: readonly string[];
  onChange: (next: string[]) => void;
  held: readonly Permission[];
  role: Role;
  error?: { message?: string };
}) {
  const id = useId();
  const offerable = offerablePermissions(held);
  const chosen = new Set(value);
  const set = (next: readonly Permission[]) => onChange(sortPermissions(next));
  const toggle = (permission: Permission, on: boolean) =>
    set(
      on
        ? [...offerable.filter((item) => chosen.has(item)), permission]
        : offerable.filter((item) => item !== permission && chosen.has(item)),
    );
  const count = offerable.filter((permission) => chosen.has(permission)).length;
  const current = presetOf(
    offerable.filter((permission) => chosen.has(permission)),
    held,
  );
  const describedBy = [`${id}-count`, error?.message ? `${id}-error` : undefined].filter(Boolean).join(" ");

  return (
    <fieldset className="permission-picker" aria-describedby={describedBy}>
      <legend>Permissions</legend>
      <p className="hint">
        What the key may do. It starts read-only; pick another starting point or tick what it needs.
        {offerable.length < KEY_PERMISSIONS.length &&
          ` Greyed out: not part of your role (${ROLE_LABELS[role]}); a key never gets more than you hold.`}
      </p>
      <PresetButtons id={id} current={current?.name} onPick={(preset) => set(preset.permissions(held))} />
      <PermissionGroups id={id} held={held} chosen={chosen} onToggle={toggle} />
      {chosen.has("employees:write") && (
        <p className="alert warn" role="note">
          <strong>Employees: write</strong> lets this key invite people to the dashboard, deactivate employees and turn
          off their two-factor authentication. Give it only to a system that manages your staff.
        </p>
      )}
      <p id={`${id}-count`} className={count === 0 ? "alert warn" : "hint"} role="status">
        {count === 0
          ? "No permissions chosen: the key will be refused everywhere."
          : `${count} of ${offerable.length} permissions chosen.`}
      </p>
      {error?.message && (
        <span id={`${id}-error`} className="field-error" role="alert">
          {error.message}
        </span>
      )}
    </fieldset>
  );
}

/** The presets a key can start from; the one the ticked permissions match is pressed. */
function PresetButtons({
  id,
  current,
  onPick,
}: {
  id: string;
  current: string | undefined;
  onPick: (preset: (typeof PERMISSION_PRESETS)[number]) => void;
}) {
  return (
    <div className="permission-presets" role="group" aria-label="Starting points">
      {PERMISSION_PRESETS.map((preset) => (
        <button
          key={preset.name}
          type="button"
          aria-pressed={current === preset.name}
          aria-labelledby={`${id}-preset-${preset.name}-label`}
          aria-describedby={`${id}-preset-${preset.name}`}
          onClick={() => onPick(preset)}
        >
          <strong id={`${id}-preset-${preset.name}-label`}>{preset.label}</strong>
          <span id={`${id}-preset-${preset.name}`} className="preset-grants">
            {preset.grants}
          </span>
        </button>
      ))}
    </div>
  );
}

type Toggle = (permission: Permission, on: boolean) => void;

function PermissionGroups({
  id,
  held,
  chosen,
  onToggle,
}: {
  id: string;
  held: readonly Permission[];
  chosen: ReadonlySet<string>;
  onToggle: Toggle;
}) {
  return (
    <div className="permission-groups">
      {groupPermissions(KEY_PERMISSIONS).map((group, index) => (
        <div key={group.label} className="permission-group" role="group" aria-labelledby={`${id}-group-${index}`}>
          <h3 id={`${id}-group-${index}`}>{group.label}</h3>
          {group.resources.map((resource) => (
            <PermissionRow
              key={resource.resource}
              resource={resource}
              held={held}
              chosen={chosen}
              onToggle={onToggle}
            />
          ))}
        </div>
      ))}
    </div>
  );
}

/** One resource's checkboxes (read, write…); what the role lacks is disabled. */
function PermissionRow({
  resource,
  held,
  chosen,
  onToggle,
}: {
  resource: ResourcePermissions;
  held: readonly Permission[];
  chosen: ReadonlySet<string>;
  onToggle: Toggle;
}) {
  return (
    <div className="permission-row">
      <span className="permission-resource">{resource.label}</span>
      <span className="permission-actions">
        {resource.actions.map(({ permission, action }) => {
          const allowed = held.includes(permission);
          return (
            <label
              key={permission}
              className={`action-${action}${allowed ? "" : " unavailable"}`}
              title={allowed ? undefined : "Not part of your role"}
            >
              <input
                type="checkbox"
                aria-label={permissionLabel(permission)}
                checked={allowed && chosen.has(permission)}
                disabled={!allowed}
                onChange={(event) => onToggle(permission, event.target.checked)}
              />
              {action}
            </label>
          );
        })}
      </span>
    </div>
  );
}
