import { csvRecord } from "@/lib/exports/csv";
import { withScope, type Scope } from "@/lib/tenancy";

/** How an export ended: every row written, or cut short (the client went away, or a read failed). */
export type ExportEnd = { rowCount: number; complete: boolean };

/**
 * A CSV file as a stream: the header row, then each page `pages` yields, read only when the client
 * has taken the page before (the stream pulls), so memory holds one page whatever the export's size.
 * `finished` is called once, when the last row went out, or with what was sent when it was cut short.
 */
export function csvStream<Row>({
  header,
  pages,
  toRecord,
  finished,
}: {
  header: readonly string[];
  pages: AsyncIterator<Row[]>;
  toRecord: (row: Row) => readonly unknown[];
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
        controller.enqueue(encoder.encode(csvRecord(header)));
      },
      async pull(controller) {
        try {
          const page = await pages.next();
          if (page.done) {
            await end(true);
            controller.close();
            return;
          }
          rowCount += page.value.length;
          if (page.value.length)
            controller.enqueue(encoder.encode(page.value.map((row) => csvRecord(toRecord(row))).join("")));
        } catch (error) {
          await end(false);
          controller.error(error);
        }
      },
      async cancel() {
        await pages.return?.(undefined);
        await end(false);
      },
    },
    // One page waits in the stream at most: the next is read when the client took it.
    { highWaterMark: 1 },
  );
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

/** `<name>-<YYYY-MM-DD>.csv`, the day in UTC. */
export const exportFileName = (name: string, at = new Date()) => `${name}-${at.toISOString().slice(0, 10)}.csv`;

/** The export's answer: the stream as a CSV attachment. */
export function csvResponse(body: ReadableStream<Uint8Array>, fileName: string): Response {
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
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
