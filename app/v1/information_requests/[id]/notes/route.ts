import {
  createInformationRequestNoteEndpoint,
  listInformationRequestNotesEndpoint,
} from "@/lib/information-requests/evidence-endpoints";
import { addInformationRequestNote, listInformationRequestNotes } from "@/lib/information-requests/notes";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: the request's notes, oldest first. POST: add one (an employee or an API key writes it).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listInformationRequestNotesEndpoint, ({ params }) =>
    listInformationRequestNotes({ informationRequestId: params.id }),
  ),
  POST: route(createInformationRequestNoteEndpoint, async ({ actor, params, body, audit }) => {
    const note = await addInformationRequestNote({
      informationRequestId: params.id,
      body: body.body,
      by: { type: actor.type, id: actor.id },
    });
    audit.details = { noteId: note.id };
    return note;
  }),
});
