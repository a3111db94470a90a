"use client";

import { useState, type FormEvent } from "react";
import { useCan, useMe } from "@/components/me";
import { ErrorMessage } from "@/components/ui/data-state";
import { Section } from "@/components/ui/details-list";
import { Field } from "@/components/ui/field";
import {
  informationRequestPriorities,
  type InformationRequestPriority,
  type UpdateInformationRequestInput,
} from "@/lib/information-requests/schemas";
import { priorityLabels } from "./labels";
import type { useCasePeople } from "./case-people";
import { useUpdateCase, type CaseDetail } from "./detail-hooks";

type People = ReturnType<typeof useCasePeople>;
type Change = UpdateInformationRequestInput;

/**
 * Who works on the request and how urgent it is: pick an assignee (or take it, or hand it back) and
 * a priority, while it is open. Only for employees who may decide requests; everyone else reads both in the details.
 */
export function CaseAssignment({ request, people }: { request: CaseDetail; people: People }) {
  const me = useMe();
  const can = useCan();
  const update = useUpdateCase(request.id);
  const [done, setDone] = useState<string | null>(null);
  // A decided request is no one's work any more: its assignee and priority stay as they were.
  const open = request.status === "requested" || request.status === "on_review";
  if (!can("information_requests:write") || !open) return null;
  const change = (body: Change, message: string) => {
    setDone(null);
    update.mutate(body, { onSuccess: () => setDone(message) });
  };
  const nameFor = (id: string | null) => (id === me.id ? "you" : id ? (people.nameOf(id) ?? "another employee") : "");
  return (
    <Section id="assignment-heading" title="Assignment">
      <div className="row">
        {request.assigneeId !== me.id && (
          <button
            type="button"
            className="primary"
            disabled={update.isPending}
            onClick={() => change({ assigneeId: me.id }, "Assigned to you.")}
          >
            Assign to me
          </button>
        )}
        {request.assigneeId && (
          <button type="button" disabled={update.isPending} onClick={() => change({ assigneeId: null }, "Unassigned.")}>
            Unassign
          </button>
        )}
      </div>
      <AssignmentForm
        // A fresh form for each saved state, so its fields start from what the server holds.
        key={`${request.assigneeId}:${request.priority}`}
        request={request}
        people={people}
        pending={update.isPending}
        onSave={(body) => {
          const parts = [
            body.assigneeId !== undefined &&
              (body.assigneeId ? `Assigned to ${nameFor(body.assigneeId)}.` : "Unassigned."),
            body.priority && `Priority ${priorityLabels[body.priority].toLowerCase()}.`,
          ];
          change(body, parts.filter(Boolean).join(" "));
        }}
      />
      <ErrorMessage error={update.error} />
      {done && !update.error && (
        <div className="alert success" role="status">
          {done}
        </div>
      )}
    </Section>
  );
}

function AssignmentForm({
  request,
  people,
  pending,
  onSave,
}: {
  request: CaseDetail;
  people: People;
  pending: boolean;
  onSave: (body: Change) => void;
}) {
  const [assigneeId, setAssigneeId] = useState(request.assigneeId ?? "");
  const [priority, setPriority] = useState<InformationRequestPriority>(request.priority);
  const current = request.assigneeId;
  // The current assignee stays in the list even where they may no longer be chosen (deactivated, another role).
  const options =
    current && !people.eligible.some(({ id }) => id === current)
      ? [...people.eligible, { id: current, name: people.nameOf(current) ?? "Another employee" }]
      : people.eligible;
  const body: Change = {
    ...((assigneeId || null) !== current && { assigneeId: assigneeId || null }),
    ...(priority !== request.priority && { priority }),
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (Object.keys(body).length > 0) onSave(body);
  };
  return (
    <form className="stack" onSubmit={submit} aria-label="Assignee and priority">
      <div className="form-grid">
        <AssigneeSelect value={assigneeId} onChange={setAssigneeId} options={options} canList={people.canList} />
        <PrioritySelect value={priority} onChange={setPriority} />
      </div>
      <div>
        <button type="submit" disabled={pending || Object.keys(body).length === 0}>
          {pending ? "Saving…" : "Save assignment"}
        </button>
      </div>
    </form>
  );
}

function AssigneeSelect({
  value,
  onChange,
  options,
  canList,
}: {
  value: string;
  onChange: (assigneeId: string) => void;
  options: People["eligible"];
  canList: boolean;
}) {
  return (
    <Field
      label="Assignee"
      hint={canList ? "Employees whose role may decide requests." : "Your role cannot list employees."}
    >
      {(control) => (
        <select {...control} value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">Nobody (unassigned)</option>
          {options.map(({ id, name }) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function PrioritySelect({
  value,
  onChange,
}: {
  value: InformationRequestPriority;
  onChange: (priority: InformationRequestPriority) => void;
}) {
  return (
    <Field label="Priority">
      {(control) => (
        <select
          {...control}
          value={value}
          onChange={(event) => onChange(event.target.value as InformationRequestPriority)}
        >
          {informationRequestPriorities.map((option) => (
            <option key={option} value={option}>
              {priorityLabels[option]}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
