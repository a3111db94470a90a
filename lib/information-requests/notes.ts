import { newId } from "@/lib/ids/generate";
import { notFound } from "@/lib/errors";
import { noteEventSchema, presentNote } from "@/lib/information-requests/evidence-schemas";
import { recordTimelineEntry, type TimelineActor } from "@/lib/information-requests/timeline";
import { scopeAccountId, tenantDb } from "@/lib/tenancy";
import { emitResourceEvent } from "@/lib/webhooks/events";

// Notes on an information request: written by employees and API keys alike, never edited or deleted.
// Every function runs inside a tenant scope, so another account's request is simply not found (404).

/** The request's id, if it is the scope's own. */
export async function findEvidenceRequest(id: string): Promise<string> {
  const row = await tenantDb().informationRequest.findUnique({ where: { id }, select: { id: true } });
  if (!row) throw notFound("Information request");
  return row.id;
}

/** The request's notes, oldest first. */
export async function listInformationRequestNotes({ informationRequestId }: { informationRequestId: string }) {
  const id = await findEvidenceRequest(informationRequestId);
  const rows = await tenantDb().informationRequestNote.findMany({
    where: { informationRequestId: id },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(presentNote);
}

/** Adds a note, with its timeline entry and its `information_request.note_added` event (in the caller's transaction). */
export async function addInformationRequestNote({
  informationRequestId,
  body,
  by,
}: {
  informationRequestId: string;
  body: string;
  by: TimelineActor & { id: string };
}) {
  const id = await findEvidenceRequest(informationRequestId);
  const row = await tenantDb().informationRequestNote.create({
    data: { id: newId("note"), accountId: scopeAccountId(), informationRequestId: id, authorId: by.id, body },
  });
  await recordTimelineEntry({
    informationRequestId: id,
    type: "note_added",
    actor: by,
    data: { noteId: row.id, body },
    at: row.createdAt,
  });
  const note = presentNote(row);
  await emitResourceEvent("information_request.note_added", noteEventSchema, { ...note, informationRequestId: id });
  return note;
}
