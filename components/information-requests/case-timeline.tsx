"use client";

import type { ReactNode } from "react";
import { DataState } from "@/components/ui/data-state";
import { DateTime } from "@/components/ui/format";
import { reasonCodeLabels, priorityLabels } from "./labels";
import type { useCasePeople } from "./case-people";
import { DocumentEvidence } from "./document-evidence";
import type { TimelineEntry, useTimeline } from "./detail-hooks";
import styles from "./case.module.css";

type People = ReturnType<typeof useCasePeople>;

/**
 * What happened to the request, oldest first, each entry saying who and when in a sentence:
 * assignments, priorities, moves and decisions (with their reason), notes (their text, as written)
 * and documents (a preview of images, a download of every file).
 */
export function CaseTimeline({
  requestId,
  query,
  people,
}: {
  requestId: string;
  query: ReturnType<typeof useTimeline>;
  people: People;
}) {
  const nameOf = (id: string | null) => (id === null ? null : (people.nameOf(id) ?? "a former employee"));
  return (
    <DataState query={query} isEmpty={query.data?.length === 0} empty="Nothing has happened to this request yet.">
      <ol className={styles.timeline} data-testid="timeline">
        {query.data?.map((entry, index) => (
          <li key={`${entry.at}-${index}`} className={styles.entry} data-type={entry.type}>
            <p className={styles.sentence}>
              <Sentence entry={entry} nameOf={nameOf} />{" "}
              <span className="muted">
                · <DateTime value={entry.at} />
              </span>
            </p>
            <Body requestId={requestId} entry={entry} />
          </li>
        ))}
      </ol>
    </DataState>
  );
}

type NameOf = (id: string | null) => string | null;

function actorName({ actor }: TimelineEntry, nameOf: NameOf): string {
  if (actor.type === "system") return "The service";
  if (actor.type === "api_key") return actor.name ? `API key ${actor.name}` : "An API key";
  return actor.name ?? nameOf(actor.id) ?? "A former employee";
}

const statusSentences: Record<string, string> = {
  on_review: "started the review",
  approved: "approved it",
  rejected: "rejected it",
  expired: "expired it",
  requested: "reopened it",
};

function Sentence({ entry, nameOf }: { entry: TimelineEntry; nameOf: NameOf }): ReactNode {
  const who = <strong>{actorName(entry, nameOf)}</strong>;
  switch (entry.type) {
    case "created":
      return <>{who} raised the request</>;
    case "assigned": {
      if (entry.assigneeId === null) return <>{who} unassigned it</>;
      if (entry.actor.type === "employee" && entry.assigneeId === entry.actor.id) return <>{who} took it</>;
      return (
        <>
          {who} assigned it to <strong>{nameOf(entry.assigneeId)}</strong>
        </>
      );
    }
    case "priority_changed":
      return (
        <>
          {who} changed the priority from {priorityLabels[entry.previousPriority].toLowerCase()} to{" "}
          <strong>{priorityLabels[entry.priority].toLowerCase()}</strong>
        </>
      );
    case "status_changed":
      return (
        <>
          {who} {statusSentences[entry.status] ?? `moved it to ${entry.status.replaceAll("_", " ")}`}
        </>
      );
    case "note_added":
      return <>{who} added a note</>;
    case "document_added":
      return <>{who} attached a document</>;
    case "sla_breached":
      return <>The deadline passed with the request still open</>;
  }
}

const decisionWords: Record<string, string> = { approved: "Approved", rejected: "Rejected", expired: "Expired" };

/** What an entry carries besides its sentence: a decision's reason, a note's text, a document. */
function Body({ requestId, entry }: { requestId: string; entry: TimelineEntry }) {
  if (entry.type === "note_added") return <p className={styles.note}>{entry.body}</p>;
  if (entry.type === "document_added") return <DocumentEvidence requestId={requestId} document={entry} />;
  if (entry.type !== "status_changed" || !(entry.reasonCode || entry.reason)) return null;
  const decision = decisionWords[entry.status] ?? entry.status;
  const code = entry.reasonCode ? ` — ${reasonCodeLabels[entry.reasonCode]}` : "";
  return (
    <p className={styles.note} data-testid="decision-reason">
      <strong>
        {decision}
        {code}
      </strong>
      {entry.reason ? `: ${entry.reason}` : ""}
    </p>
  );
}
