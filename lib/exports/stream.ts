import { csvRecord } from "@/lib/exports/csv";
import { withScope, type Scope } from "@/lib/tenancy";

/** How an export ended: every row written, or cut short (the client went away, or a read failed). */
export type ExportEnd = { rowCount: number; complete: boolean };

/** A piece of an export: its text, and how many rows of the export it holds (0 for a header). */
export type ExportChunk = { text: string; rows: number };

/**
 * An export as a stream of text: `head`, then each chunk `chunks` yields, read only when the client
 * has taken the one before (the stream pulls), so memory holds one chunk whatever the export's size.
 * `finished` is called once, when the last row went out, or with what was sent when it was cut short.
 */
export function exportStream({
  head,
  chunks,
  finished,
}: {
  head: string;
  chunks: AsyncIterator<ExportChunk>;
  finished: (end: ExportEnd) => Promise<void>;
}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let rowCount = 0;
  let ended = false;
  const end = async (complete: boolean) => {
    if (ended) return;
    ended = true;
    await finished({ rowCount, complete });
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (head) controller.enqueue(encoder.encode(head));
      },
      async pull(controller) {
        try {
          const chunk = await chunks.next();
          if (chunk.done) {
            await end(true);
            controller.close();
            return;
          }
          rowCount += chunk.value.rows;
          if (chunk.value.text) controller.enqueue(encoder.encode(chunk.value.text));
        } catch (error) {
          await end(false);
          controller.error(error);
        }
      },
      async cancel() {
        await chunks.return?.(undefined);
        await end(false);
      },
    },
    // One chunk waits in the stream at most: the next is read when the client took it.
    { highWaterMark: 1 },
  );
}

/** Each page as the text of its CSV records. */
export async function* csvChunks<Row>(
  pages: AsyncIterator<Row[]>,
  toRecord: (row: Row) => readonly unknown[],
): AsyncGenerator<ExportChunk> {
  try {
    for (let page = await pages.next(); !page.done; page = await pages.next())
      yield { text: page.value.map((row) => csvRecord(toRecord(row))).join(""), rows: page.value.length };
  } finally {
    await pages.return?.(undefined);
  }
}

/** Every page a keyset reader gives, in turn: `read(next)` answers a page and the cursor of the one after it. */
export async function* eachPage<T>(read: (next: string | undefined) => Promise<{ items: T[]; next: string | null }>) {
  let next: string | undefined;
  do {
    const page = await read(next);
    yield page.items;
    next = page.next ?? undefined;
  } while (next !== undefined);
}

/** `<name>-<YYYY-MM-DD>.<extension>`, the day in UTC. */
export const exportFileName = (name: string, at = new Date(), extension = "csv") =>
  `${name}-${at.toISOString().slice(0, 10)}.${extension}`;

/** The export's answer: the stream as an attachment (CSV unless `contentType` says otherwise). */
export function exportResponse(
  body: ReadableStream<Uint8Array>,
  fileName: string,
  contentType = "text/csv; charset=utf-8",
): Response {
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": contentType,
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/**
 * `pages` read within `scope`: an export's pages are read while its answer streams, after the
 * request's own scope has ended, so each read names the scope again.
 */
export function scopedPages<T>(scope: Scope, pages: AsyncIterator<T>): AsyncIterator<T> {
  return {
    next: () => withScope(scope, () => pages.next()),
    return: async (value?: unknown) => (await pages.return?.(value)) ?? { done: true, value: undefined },
  };
}
