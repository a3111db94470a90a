// The app's side of the access log (lib/observability/access-log.mjs): who made the request and its trace,
// noted under the request's server id while server.mjs tracks it. Outside server.mjs (tests, `next dev`)
// nothing is tracked and noting does nothing.

type Note = { actor: string | null; traceId?: string };
const NOTES = Symbol.for("platform-compliance.request-notes");
const notes = () => (globalThis as { [key: symbol]: Map<string, Note> | undefined })[NOTES];

/** The caller's id (an employee's, an API key's; never a secret) and the trace id, for the request's access line. */
export function noteRequest(requestId: string, fields: Partial<Note>): void {
  const note = notes()?.get(requestId);
  if (note) Object.assign(note, fields);
}
