// A TCP proxy on 127.0.0.1 in front of a PostgreSQL server for the bench (scripts/bench.ts): it holds
// every chunk `delayMs` in each direction, the latency of a network between the service and its
// database, on loopback; and it counts the statements clients send through it, read from the wire
// protocol, so the bench can tell how many statements a request costs without pg_stat_statements.
import net from "node:net";

export type DelayProxy = {
  port: number;
  /** Statements sent through the proxy so far, by kind ("BEGIN", "INSERT DelegatedUser", "SELECT ApiKey", ...). */
  statements(): Map<string, number>;
  close(): Promise<void>;
};

export async function startDelayProxy(options: { host: string; port: number; delayMs: number }): Promise<DelayProxy> {
  const counts = new Map<string, number>();
  const count = (text: string) => {
    const kind = statementKind(text);
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: options.host, port: options.port });
    // Nagle's algorithm would hold small writes back for an acknowledgement: a delay no network adds.
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => (client.destroy(), upstream.destroy()));
    }
    const reader = new ClientMessages(count);
    delayedPipe(client, upstream, options.delayMs, (chunk) => reader.push(chunk));
    delayedPipe(upstream, client, options.delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    statements: () => new Map(counts),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Copies `from` to `to`, each chunk written `delayMs` after it arrived, in order: one queue per
 * direction, so a connection's bytes never overtake each other. Each chunk has a timer of its own,
 * which writes it and whatever is still queued before it (a timer only ever fires late, so those are
 * due too). One timer for the head of the queue, re-armed for the next chunk's remaining fraction of
 * a millisecond, made the delay 1.5 ms on average: Node's timers count whole milliseconds.
 */
function delayedPipe(from: net.Socket, to: net.Socket, delayMs: number, onChunk?: (chunk: Buffer) => void) {
  const queue: { seq: number; chunk: Buffer }[] = [];
  let arrived = 0;
  let ended = false;
  const release = (seq: number) => {
    while (queue.length > 0 && queue[0]!.seq <= seq) to.write(queue.shift()!.chunk);
    if (ended && queue.length === 0) to.end();
  };
  from.on("data", (chunk: Buffer) => {
    onChunk?.(chunk);
    const seq = arrived++;
    queue.push({ seq, chunk });
    setTimeout(() => release(seq), delayMs);
  });
  from.on("end", () => {
    ended = true;
    if (queue.length === 0) to.end();
  });
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

/**
 * The client-to-server half of PostgreSQL's wire protocol (version 3), reassembled from chunks: after
 * the startup message (a length and a code, no type byte) every message is a type byte and an int32
 * length that counts itself. A statement is counted when it runs: a simple query ('Q', each statement
 * of a multi-statement string), or an Execute ('E') of the extended protocol, whose text comes from
 * the Parse ('P') of the statement that the portal was bound to ('B'). node-postgres sends
 * Parse/Bind/Describe/Execute/Sync for a query with parameters, and Bind/Execute/Sync again for a
 * named statement it prepared before.
 */
class ClientMessages {
  private buffer: Buffer = Buffer.alloc(0);
  private startup = true;
  private prepared = new Map<string, string>();
  private portals = new Map<string, string>();

  constructor(private readonly count: (text: string) => void) {}

  push(chunk: Buffer) {
    this.buffer = this.buffer.length > 0 ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      const header = this.startup ? 4 : 5;
      if (this.buffer.length < header) return;
      const end = header - 4 + this.buffer.readInt32BE(header - 4);
      if (this.buffer.length < end) return;
      const message = this.buffer.subarray(0, end);
      this.buffer = this.buffer.subarray(end);
      if (this.startup) {
        // SSL or GSS encryption is asked before the real startup message (node-postgres does so only when told to).
        const code = message.readInt32BE(4);
        this.startup = code === SSL_REQUEST || code === GSSENC_REQUEST;
      } else {
        this.onMessage(String.fromCharCode(message[0]!), message.subarray(5));
      }
    }
  }

  private onMessage(type: string, body: Buffer) {
    const strings = (n: number) => {
      const out: string[] = [];
      let at = 0;
      for (let i = 0; i < n; i++) {
        const end = body.indexOf(0, at);
        out.push(body.toString("utf8", at, end));
        at = end + 1;
      }
      return out;
    };
    if (type === "Q") {
      for (const statement of strings(1)[0]!.match(/(?:'[^']*'|"[^"]*"|[^;'"])+/g) ?? [])
        if (statement.trim()) this.count(statement);
    } else if (type === "P") {
      const [name, text] = strings(2);
      this.prepared.set(name!, text!);
    } else if (type === "B") {
      const [portal, statement] = strings(2);
      this.portals.set(portal!, this.prepared.get(statement!) ?? "?");
    } else if (type === "E") {
      this.count(this.portals.get(strings(1)[0]!) ?? "?");
    }
  }
}

/** "BEGIN", "INSERT DelegatedUser", "SELECT ApiKey", "SELECT pg_advisory_xact_lock": what a statement is, for the breakdown. */
export function statementKind(text: string): string {
  const sql = text.replace(/\s+/g, " ").trim();
  const verb = (/^\w+/.exec(sql)?.[0] ?? "?").toUpperCase();
  const table = /\b(?:INTO|UPDATE|FROM)\s+((?:"[^"]+"|\w+)(?:\.(?:"[^"]+"|\w+))*)/i.exec(sql)?.[1];
  if (table) return `${verb} ${table.split(".").pop()!.replaceAll('"', "")}`;
  if (verb === "SELECT") return `SELECT ${/^SELECT\s+(\w+)/i.exec(sql)?.[1] ?? "?"}`;
  return verb;
}
