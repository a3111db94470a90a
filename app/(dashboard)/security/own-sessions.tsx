"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { DataTable } from "@/components/ui/data-table";
import { DataState, ErrorMessage } from "@/components/ui/data-state";
import { DateTime } from "@/components/ui/format";
import { formatDateTime } from "@/lib/client/format";
import { Notice } from "@/components/ui/use-page-dialogs";
import { api, ApiRequestError } from "@/lib/client/api";
import { useApiQuery, useInvalidate } from "@/lib/client/queries";
import { endOwnSessionEndpoint, listOwnSessionsEndpoint } from "@/lib/employees/endpoints";
import type { ResponseOf } from "@/lib/contract/endpoint";

type OwnSession = ResponseOf<typeof listOwnSessionsEndpoint>[number];

/** Ends one session; one that ended meanwhile (expired, or ended from another tab) counts as ended. */
async function endSession(id: string) {
  try {
    await api(endOwnSessionEndpoint, { params: { id } });
  } catch (error) {
    if (!(error instanceof ApiRequestError && error.status === 404)) throw error;
  }
}

const signedOut = (count: number) =>
  count === 1 ? "1 other session was signed out." : `${count} other sessions were signed out.`;

/**
 * Where the signed-in employee is signed in (GET /v1/sessions), with a way to end any other one.
 * There is no "end all" endpoint: signing out everywhere else ends each other session in turn.
 */
export function OwnSessions() {
  const sessions = useApiQuery(listOwnSessionsEndpoint);
  const { notice, endOne, endOthers } = useEndSessions();
  const others = sessions.data?.filter((session) => !session.current) ?? [];
  const busy = endOne.isPending || endOthers.isPending;

  return (
    <section className="card stack" aria-labelledby="sessions-heading">
      <div className="row" style={{ justifyContent: "space-between", alignItems: "center" }}>
        <div className="stack" style={{ gap: "0.25rem", flex: "1 1 20rem" }}>
          <h2 id="sessions-heading" style={{ margin: 0 }}>
            Sessions
          </h2>
          <p className="muted" style={{ margin: 0 }}>
            Browsers signed in as you, newest first. End any you do not recognise, then change your password.
          </p>
        </div>
        <button
          type="button"
          disabled={busy || others.length === 0}
          onClick={() => {
            endOne.reset();
            endOthers.mutate(others.map((session) => session.id));
          }}
        >
          {endOthers.isPending ? "Signing out…" : "Sign out all other sessions"}
        </button>
      </div>
      <Notice>{notice}</Notice>
      <ErrorMessage error={endOne.error ?? endOthers.error} />
      <DataState query={sessions}>
        <DataTable
          label="Your sessions"
          className="sessions-table"
          columns={[
            "Started",
            "Last active",
            "IP address",
            <span key="actions" className="visually-hidden">
              Actions
            </span>,
          ]}
        >
          {sessions.data?.map((session) => (
            <SessionRow
              key={session.id}
              session={session}
              busy={busy}
              ending={endOne.isPending && endOne.variables === session.id}
              onEnd={() => {
                endOthers.reset();
                endOne.mutate(session.id);
              }}
            />
          ))}
        </DataTable>
      </DataState>
    </section>
  );
}

/** Ending one session or all the others, with what the last success did as a notice. */
function useEndSessions() {
  const invalidate = useInvalidate();
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => invalidate(listOwnSessionsEndpoint);
  const endOne = useMutation({
    mutationFn: endSession,
    onMutate: () => setNotice(null),
    onSuccess: () => setNotice("Session ended: that browser is signed out."),
    onSettled: refresh,
  });
  const endOthers = useMutation({
    mutationFn: async (ids: string[]) => {
      const results = await Promise.allSettled(ids.map(endSession));
      const failed = results.filter((result) => result.status === "rejected").length;
      if (failed > 0) throw new Error(`${failed} of ${ids.length} sessions could not be ended. Try again.`);
      return ids.length;
    },
    onMutate: () => setNotice(null),
    onSuccess: (count) => setNotice(signedOut(count)),
    onSettled: refresh,
  });
  return { notice, endOne, endOthers };
}

function SessionRow({
  session,
  busy,
  ending,
  onEnd,
}: {
  session: OwnSession;
  busy: boolean;
  ending: boolean;
  onEnd: () => void;
}) {
  return (
    <tr data-current={session.current || undefined}>
      <td data-label="Started">
        <span className="row" style={{ gap: "0.5rem", alignItems: "center" }}>
          <DateTime value={session.createdAt} />
          {session.current && <span className="badge info">This device</span>}
        </span>
      </td>
      <td data-label="Last active">
        <DateTime value={session.lastSeenAt} />
      </td>
      <td data-label="IP address" className="mono">
        {session.ip ?? <span className="muted">Unknown</span>}
      </td>
      <td data-label="Actions" className="num">
        {!session.current && (
          <button
            type="button"
            aria-label={`End the session started ${formatDateTime(session.createdAt)}`}
            disabled={busy}
            onClick={onEnd}
          >
            {ending ? "Ending…" : "End"}
          </button>
        )}
      </td>
    </tr>
  );
}
