"use client";

import { Fragment, useId } from "react";
import { EVENT_TYPES, type EventType } from "@/lib/webhooks/event-types";
import styles from "./webhooks.module.css";

/**
 * The events an endpoint subscribes to, as a checklist: each type `offered` (those the employee may
 * read; see offeredEventTypes) with what it means.
 */
export function EventPicker({
  value,
  onChange,
  offered,
  error,
}: {
  value: readonly string[];
  onChange: (next: string[]) => void;
  offered: readonly EventType[];
  error?: { message?: string };
}) {
  const id = useId();
  const chosen = new Set(value);
  // Kept in the list's order, so the body sent (and the endpoint shown later) reads the same way.
  const set = (next: Set<string>) => onChange(offered.filter((name) => next.has(name)));
  const toggle = (name: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(name);
    else next.delete(name);
    set(next);
  };
  const count = offered.filter((name) => chosen.has(name)).length;
  return (
    <fieldset
      className={styles.eventPicker}
      aria-describedby={[`${id}-count`, error?.message ? `${id}-error` : undefined].filter(Boolean).join(" ")}
    >
      <legend>Events</legend>
      <div className={styles.eventPickerBar}>
        <span id={`${id}-count`} className="muted">
          {count} of {offered.length} chosen
        </span>
        <button type="button" className="link" onClick={() => set(new Set(offered))}>
          All
        </button>
        <button type="button" className="link" onClick={() => set(new Set())}>
          None
        </button>
      </div>
      <ul className={styles.eventList}>
        {offered.map((name) => (
          <EventOption
            key={name}
            id={`${id}-${name}`}
            name={name}
            checked={chosen.has(name)}
            onToggle={(on) => toggle(name, on)}
          />
        ))}
      </ul>
      {error?.message && (
        <span id={`${id}-error`} className="field-error" role="alert">
          {error.message}
        </span>
      )}
    </fieldset>
  );
}

/** One event type: its checkbox, its name and what it means. `id` is the checkbox's, unique on the page. */
function EventOption({
  id,
  name,
  checked,
  onToggle,
}: {
  id: string;
  name: EventType;
  checked: boolean;
  onToggle: (on: boolean) => void;
}) {
  return (
    <li>
      <input
        type="checkbox"
        id={id}
        aria-describedby={`${id}-description`}
        checked={checked}
        onChange={(event) => onToggle(event.target.checked)}
      />
      <label htmlFor={id} className="mono">
        <Breakable name={name} />
      </label>
      <span id={`${id}-description`} className={styles.eventDescription}>
        {EVENT_TYPES[name]}
      </span>
    </li>
  );
}

/** An event type that may wrap after its dots and underscores on a narrow screen ("information_request.status_changed"). */
function Breakable({ name }: { name: string }) {
  const parts = name.split(/(?<=[._])/);
  return parts.map((part, index) => (
    <Fragment key={index}>
      {part}
      {index < parts.length - 1 && <wbr />}
    </Fragment>
  ));
}
