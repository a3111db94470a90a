// The work queue's section of `npm run bench` (docs/performance.md): information requests with assignees,
// priorities and due dates, seeded straight into the database (SQLite and PostgreSQL), and the
// queue's pages ("Assigned to me, sorted by due", "Overdue", first and deep) measured against the
// plain list at 1,000 and at 100,000 rows. Server CPU time per request is the figure the targets
// read (it moves far less than latency on a shared machine); p50 latency is printed beside it.
import { randomBytes } from "node:crypto";
import autocannon from "autocannon";
import type Database from "better-sqlite3";
import { cpuMs } from "./process-cpu";

const DAY = 86_400_000;
const HOUR = 3_600_000;
export const QUEUE_ASSIGNEES = 10;

export type QueueRow = {
  id: string;
  accountId: string;
  kind: "due_diligence" | "endorsement";
  status: string;
  priority: string;
  assigneeId: string | null;
  createdAt: Date;
  dueAt: Date | null;
};

let counter = 0;
const rowId = () => `ir_q${(counter++).toString(36).padStart(10, "0")}${randomBytes(3).toString("hex")}`;

/**
 * `count` requests over the last year as a busy platform has them: most old ones decided, the
 * recent ones open (a fifth of those past due), one in five unassigned, one in ten with no SLA.
 * `from` offsets the sequence, so a second call continues the first one's year.
 */
export function queueRows({
  accountId,
  assigneeIds,
  from,
  count,
  total,
  now,
}: {
  accountId: string;
  assigneeIds: string[];
  from: number;
  count: number;
  total: number;
  now: number;
}): QueueRow[] {
  const start = now - 365 * DAY;
  const step = (365 * DAY) / total;
  const priorities = ["low", "normal", "normal", "normal", "high", "urgent"];
  return Array.from({ length: count }, (_, offset) => {
    const i = from + offset;
    const createdAt = start + i * step;
    const age = now - createdAt;
    // Requests older than ten days are decided, save one in 47 left open (the overdue tail);
    // younger ones are open, requested or on review.
    const open = age < 10 * DAY || i % 47 === 3;
    const status = open ? (i % 2 ? "requested" : "on_review") : ["approved", "rejected", "expired"][i % 3]!;
    return {
      id: rowId(),
      accountId,
      kind: i % 2 ? "due_diligence" : "endorsement",
      status,
      priority: priorities[i % priorities.length]!,
      assigneeId: i % 5 === 0 ? null : assigneeIds[i % assigneeIds.length]!,
      createdAt: new Date(createdAt),
      dueAt: i % 10 === 0 ? null : new Date(createdAt + 8 * DAY + (i % 48) * HOUR),
    };
  });
}

/** Prisma stores DateTime on SQLite as ISO text with a "+00:00" offset; bulk rows must match it exactly. */
const sqliteTime = (date: Date) => date.toISOString().replace("Z", "+00:00");

export function insertQueueRowsSqlite(db: Database.Database, rows: QueueRow[]) {
  const insert = db.prepare(
    `INSERT INTO "InformationRequest" (id, accountId, kind, status, priority, assigneeId, dueAt, createdAt, updatedAt)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (const row of rows) {
      const at = sqliteTime(row.createdAt);
      insert.run(
        row.id,
        row.accountId,
        row.kind,
        row.status,
        row.priority,
        row.assigneeId,
        row.dueAt && sqliteTime(row.dueAt),
        at,
        at,
      );
    }
  })();
}

type Query = (sql: string, values?: unknown[]) => Promise<unknown>;

export async function insertQueueRowsPostgresql(query: Query, rows: QueueRow[]) {
  for (let from = 0; from < rows.length; from += 10_000) {
    const batch = rows.slice(from, from + 10_000);
    await query(
      `INSERT INTO "InformationRequest" (id, "accountId", kind, status, priority, "assigneeId", "dueAt", "createdAt", "updatedAt")
       SELECT id, "accountId", kind::"InformationRequestKind", status::"InformationRequestStatus",
              priority::"InformationRequestPriority", "assigneeId", "dueAt", "createdAt", "createdAt"
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamp(3)[], $8::timestamp(3)[])
         AS t(id, "accountId", kind, status, priority, "assigneeId", "dueAt", "createdAt")`,
      [
        batch.map((row) => row.id),
        batch.map((row) => row.accountId),
        batch.map((row) => row.kind),
        batch.map((row) => row.status),
        batch.map((row) => row.priority),
        batch.map((row) => row.assigneeId),
        batch.map((row) => row.dueAt?.toISOString() ?? null),
        batch.map((row) => row.createdAt.toISOString()),
      ],
    );
  }
}

/** The queue's pages, as the dashboard asks for them, and the plain list they are compared with. */
export function queuePaths(assigneeId: string) {
  const open = "status=requested&status=on_review";
  return {
    plain: "/v1/information_requests?limit=20",
    mine: `/v1/information_requests?limit=20&assigneeId=${assigneeId}&${open}&sort=dueAt`,
    overdue: "/v1/information_requests?limit=20&overdue=true&sort=dueAt",
  };
}

/**
 * The cursor of a page about 90 % of the way down `path`'s rows: what a client holds after paging
 * far. Found by paging through the API itself (100 rows a page), so it is whatever cursor the
 * server hands out for that sort.
 */
export async function deepCursor(baseURL: string, path: string, headers: Record<string, string>): Promise<string> {
  const cursors: string[] = [];
  let next: string | null = null;
  do {
    const url: string = `${baseURL}${path.replace("limit=20", "limit=100")}${next ? `&next=${next}` : ""}`;
    const response: Response = await fetch(url, { headers });
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    next = ((await response.json()) as { next: string | null }).next;
    if (next) cursors.push(next);
  } while (next);
  if (cursors.length === 0) throw new Error(`${path}: a single page; nothing deep to measure`);
  return cursors[Math.floor((cursors.length - 1) * 0.9)]!;
}

export type QueueFigure = { name: string; cpuMsPerRequest: number; p50: number; requests: number; non2xx: number };

/**
 * Server CPU per request and p50 latency of each path on one server: rounds in which every path is
 * loaded in turn for `seconds` (4 connections), so a slow spell of the machine falls on all of them
 * alike; a path's figure is its CPU over all rounds divided by the requests it answered.
 */
export async function measurePaths({
  baseURL,
  pid,
  paths,
  rounds,
  seconds,
}: {
  baseURL: string;
  pid: number;
  /** Each path with the headers it is sent with (the account it acts for). */
  paths: Record<string, { path: string; headers: Record<string, string> }>;
  rounds: number;
  seconds: number;
}): Promise<Record<string, QueueFigure>> {
  const totals = Object.fromEntries(
    Object.keys(paths).map((name) => [name, { ms: 0, requests: 0, non2xx: 0, p50: [] as number[] }]),
  );
  for (const { path, headers } of Object.values(paths))
    await autocannon({ url: `${baseURL}${path}`, headers, connections: 4, amount: 1500 });
  for (let round = 0; round < rounds; round++) {
    for (const [name, { path, headers }] of Object.entries(paths)) {
      const before = cpuMs(pid);
      const result = await autocannon({ url: `${baseURL}${path}`, headers, connections: 4, duration: seconds });
      const total = totals[name]!;
      total.ms += cpuMs(pid) - before;
      total.requests += result.requests.total;
      total.non2xx += result.non2xx;
      total.p50.push(result.latency.p50);
    }
  }
  return Object.fromEntries(
    Object.entries(totals).map(([name, total]) => {
      const figure = {
        name,
        cpuMsPerRequest: Math.round((total.ms / total.requests) * 1000) / 1000,
        p50: total.p50.sort((a, b) => a - b)[Math.floor((total.p50.length - 1) / 2)]!,
        requests: total.requests,
        non2xx: total.non2xx,
      };
      console.log(
        `${`  ${name}`.padEnd(30)} ${figure.cpuMsPerRequest.toFixed(3).padStart(7)} ms CPU/request   p50 ${String(figure.p50).padStart(3)} ms   non-2xx ${figure.non2xx}`,
      );
      return [name, figure];
    }),
  );
}

/** What the section needs of a database: its accounts, employees and requests written straight in. */
export type QueueDatabase = {
  insertAccount(id: string, platformId: string, createdAt: Date): Promise<void>;
  insertEmployee(id: string, platformId: string, createdAt: Date): Promise<void>;
  insertRows(rows: QueueRow[]): Promise<void>;
};

export function sqliteQueueDatabase(db: Database.Database): QueueDatabase {
  return {
    insertAccount: async (id, platformId, createdAt) => {
      db.prepare(`INSERT INTO "Account" (id, platformId, parentId, name, createdAt) VALUES (?, ?, ?, ?, ?)`).run(
        id,
        platformId,
        platformId,
        `Queue ${id}`,
        sqliteTime(createdAt),
      );
    },
    insertEmployee: async (id, platformId, createdAt) => {
      db.prepare(
        `INSERT INTO "Employee" (id, accountId, name, email, status, role, createdAt) VALUES (?, ?, ?, ?, 'active', 'compliance', ?)`,
      ).run(id, platformId, `Officer ${id}`, `${id}@queue.example`, sqliteTime(createdAt));
    },
    insertRows: async (rows) => insertQueueRowsSqlite(db, rows),
  };
}

export function postgresqlQueueDatabase(query: Query): QueueDatabase {
  return {
    insertAccount: async (id, platformId, createdAt) => {
      await query(
        `INSERT INTO "Account" (id, "platformId", "parentId", name, "createdAt") VALUES ($1, $2, $2, $3, $4)`,
        [id, platformId, `Queue ${id}`, createdAt],
      );
    },
    insertEmployee: async (id, platformId, createdAt) => {
      await query(
        `INSERT INTO "Employee" (id, "accountId", name, email, status, role, "createdAt") VALUES ($1, $2, $3, $4, 'active', 'compliance', $5)`,
        [id, platformId, `Officer ${id}`, `${id}@queue.example`, createdAt],
      );
    },
    insertRows: (rows) => insertQueueRowsPostgresql(query, rows),
  };
}

export type QueueAccount = { accountId: string; assigneeId: string; rows: number };

/** A sub-account of `platformId` with `rows` requests spread over the platform's QUEUE_ASSIGNEES officers. */
export async function seedQueueAccount(
  database: QueueDatabase,
  platformId: string,
  assigneeIds: string[],
  rows: number,
): Promise<QueueAccount> {
  const now = Date.now();
  const accountId = `acct_q${randomBytes(8).toString("hex")}`;
  await database.insertAccount(accountId, platformId, new Date(now - 366 * DAY));
  for (let from = 0; from < rows; from += 50_000) {
    const count = Math.min(50_000, rows - from);
    await database.insertRows(queueRows({ accountId, assigneeIds, from, count, total: rows, now }));
  }
  return { accountId, assigneeId: assigneeIds[1]!, rows };
}

/** QUEUE_ASSIGNEES active compliance officers of the platform; their ids. */
export async function seedQueueOfficers(database: QueueDatabase, platformId: string): Promise<string[]> {
  const ids = Array.from({ length: QUEUE_ASSIGNEES }, () => `emp_q${randomBytes(8).toString("hex")}`);
  for (const id of ids) await database.insertEmployee(id, platformId, new Date());
  return ids;
}
