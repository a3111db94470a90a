import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Role } from "../lib/auth/permissions";
import {
  authenticatorFor,
  EMPLOYEE_PASSWORD,
  httpRequest,
  OWNER,
  startServer,
  type Answer,
  type Call,
  type Server,
} from "./fixtures";
import { createDatabase, expect, missingPostgresql, onPostgresql, test } from "./postgresql-fixture";

// Races between two server processes on one PostgreSQL database: the same request (or two requests
// that exclude each other) sent to both instances at the same moment, many rounds, fresh objects each
// round. Each race states the invariant it holds; the answers are read, and then the API and the
// database, to see that exactly one side won and the data agrees with the answer it got.
// A round's outcome is compared with expect.soft, so a failing run says in how many rounds it broke.
// The races do not depend on each other: after a failure the next test gets a new worker, and so new
// servers and a new database (beforeAll), so one broken race hides none of the others.
// Needs a PostgreSQL server (e2e/postgresql-fixture.ts): skipped, saying why, when none answers.

type Employee = {
  id: string;
  email: string;
  cookie: string;
  authenticator: ReturnType<typeof authenticatorFor> | null;
  recoveryCodes: string[];
};

/** An answer as the races compare them: the status, and the error code of a refusal. */
const outcome = (answer: Answer) =>
  answer.status < 400 ? String(answer.status) : `${answer.status} ${String(answer.json().error_code)}`;
const outcomes = (answers: Answer[]) => answers.map(outcome).sort();
const inADay = () => new Date(Date.now() + 86_400_000).toISOString();

test.describe("races between two instances on one PostgreSQL database", () => {
  test.setTimeout(120_000);
  let database: { url: string; drop: () => Promise<void> } | undefined;
  const servers: Server[] = [];
  /** A key of the platform with everything a key may hold, employees:write included (invitations). */
  let platformKey: string;
  /** Names and e-mail addresses of this run, apart from any other run on the same server. */
  const run = randomBytes(4).toString("hex");
  let made = 0;

  /** A request to instance `on % 2` (0 is a, 1 is b), so `i` of a burst alternates between them. */
  const call = (on: number, pathname: string, init: Call = {}) =>
    httpRequest(`${servers[on % 2]!.baseURL}${pathname}`, init);
  const withKey = (on: number, pathname: string, init: Call = {}) =>
    call(on, pathname, { ...init, headers: { authorization: `Bearer ${platformKey}`, ...init.headers } });
  const asEmployee = (on: number, employee: Employee, pathname: string, init: Call = {}) =>
    call(on, pathname, {
      ...init,
      headers: { cookie: employee.cookie, origin: servers[on % 2]!.baseURL, ...init.headers },
    });
  /** `count` requests fired together, alternating instances (`send` gets 0, 1, 2, ...). */
  const atOnce = (count: number, send: (i: number) => Promise<Answer>) =>
    Promise.all(Array.from({ length: count }, (_, i) => send(i)));
  const query = <T>(sql: string, values: unknown[] = []) =>
    onPostgresql(async (client) => (await client.query(sql, values)).rows as T[], database!.url);

  /**
   * A new employee of the platform: invited with the platform key, given `role` straight in the
   * database (a key invites viewers only, and a role change from a session costs a code), signed in
   * by accepting the invitation; with `twoFactor`, enrolled (the first code of its authenticator spent).
   */
  async function newEmployee(role: Role, { twoFactor = false } = {}): Promise<Employee> {
    const email = `racer.${(made += 1)}.${run}@acme.example`;
    const invited = await withKey(0, "/v1/employees", { method: "POST", body: { name: `Racer ${made}`, email } });
    expect(invited.status, invited.body).toBe(201);
    const { id, invitationUrl } = invited.json() as { id: string; invitationUrl: string };
    const token = new URL(invitationUrl).searchParams.get("token");
    const accepted = await call(1, "/v1/employees/invitations/accept", {
      method: "POST",
      body: { token, password: EMPLOYEE_PASSWORD },
    });
    expect(accepted.status, accepted.body).toBe(200);
    // After accepting: a role change ends the invitation link (the employee's security stamp moves).
    await query(`UPDATE "Employee" SET role = $1 WHERE id = $2`, [role, id]);
    const employee: Employee = {
      id,
      email,
      cookie: accepted.headers["set-cookie"]![0]!.split(";")[0]!,
      authenticator: null,
      recoveryCodes: [],
    };
    if (!twoFactor) return employee;
    const started = await asEmployee(0, employee, "/v1/employees/totp", {
      method: "POST",
      body: { password: EMPLOYEE_PASSWORD },
    });
    expect(started.status, started.body).toBe(200);
    employee.authenticator = authenticatorFor(started.json().secret as string);
    const confirmed = await asEmployee(1, employee, "/v1/employees/totp/confirm", {
      method: "POST",
      body: { code: await employee.authenticator.next() },
    });
    expect(confirmed.status, confirmed.body).toBe(200);
    employee.recoveryCodes = confirmed.json().recoveryCodes as string[];
    return employee;
  }

  test.beforeAll(async () => {
    const missing = await missingPostgresql();
    test.skip(missing !== null, missing ?? "");
    database = await createDatabase();
    // Two "machines": each its own DATA_DIR, one database and one ENCRYPTION_KEY. No APP_ORIGIN:
    // each instance is reached at its own address, and its own origin is the one CSRF checks.
    const shared = { DATABASE_URL: database.url, ENCRYPTION_KEY: randomBytes(32).toString("hex") };
    servers.push(
      ...(await Promise.all(
        ["a", "b"].map((name) => {
          const dataDir = mkdtempSync(path.join(os.tmpdir(), `pmc-e2e-races-${name}-`));
          return startServer({ ...shared, DATA_DIR: dataDir }, dataDir);
        }),
      )),
    );
    const setup = await call(0, "/v1/setup", { method: "POST", body: OWNER });
    expect(setup.status, setup.body).toBe(201);
    const owner: Employee = {
      id: "",
      email: OWNER.email,
      cookie: setup.headers["set-cookie"]![0]!.split(";")[0]!,
      authenticator: null,
      recoveryCodes: [],
    };
    const started = await asEmployee(0, owner, "/v1/employees/totp", {
      method: "POST",
      body: { password: OWNER.password },
    });
    expect(started.status, started.body).toBe(200);
    const authenticator = authenticatorFor(started.json().secret as string);
    const confirmed = await asEmployee(1, owner, "/v1/employees/totp/confirm", {
      method: "POST",
      body: { code: await authenticator.next() },
    });
    expect(confirmed.status, confirmed.body).toBe(200);
    const issued = await asEmployee(0, owner, "/v1/api_keys", {
      method: "POST",
      headers: { "service-totp-code": await authenticator.next() },
      body: {
        name: "races",
        expiresAt: inADay(),
        // The races send far more than the default 100 requests a second: a limit they never reach.
        rateLimit: { requests: 100_000, perSeconds: 1 },
        permissions: [
          "employees:read",
          "employees:write",
          "api_keys:read",
          "api_keys:write",
          "delegated_users:read",
          "delegated_users:write",
          "transactions:read",
          "virtual_accounts:read",
          "virtual_accounts:write",
          "recipients:read",
          "recipients:write",
          "information_requests:read",
          "sandbox:write",
        ],
      },
    });
    expect(issued.status, issued.body).toBe(201);
    platformKey = issued.json().secret as string;
  });

  /** How much each instance had logged when the test began. */
  let logged: number[] = [];
  test.beforeEach(() => {
    logged = servers.map((server) => server.output().length);
  });

  test.afterEach(async ({}, testInfo) => {
    if (testInfo.status !== testInfo.expectedStatus)
      servers.forEach((server, i) => writeFileSync(testInfo.outputPath(`server-${"ab"[i]}.log`), server.output()));
    // A race that ends in a 500 (a unique violation or a serialization failure left unmapped) is a bug even where the invariant held.
    const unhandled = servers.flatMap((server, i) =>
      server
        .output()
        .slice(logged[i])
        .split("\n")
        .filter((line) => / unhandled /.test(line))
        .map((line) => `${"ab"[i]}: ${line}`),
    );
    expect(unhandled, "requests that failed with an internal error").toEqual([]);
  });

  test.afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  });

  test("two last owners demote or deactivate each other at once: an active owner always remains", async () => {
    // Each round makes two fresh owners the platform's only active owners, then each takes the owner
    // role from the other (or deactivates the other), one on each instance. At most one change may
    // commit: the other is refused, 409 (last active owner) or, when the winner committed before it
    // was even authenticated, 403 (no longer an owner) or 401 (session ended by the deactivation).
    const rounds = 10;
    for (const change of ["demote", "deactivate"] as const) {
      for (let round = 0; round < rounds; round += 1) {
        const [x, y] = await Promise.all([
          newEmployee("owner", { twoFactor: true }),
          newEmployee("owner", { twoFactor: true }),
        ]);
        await query(`UPDATE "Employee" SET role = 'admin' WHERE role = 'owner' AND id <> ALL($1)`, [[x.id, y.id]]);
        const [codeX, codeY] = [await x.authenticator!.next(), await y.authenticator!.next()];
        const act = (on: number, actor: Employee, target: Employee, code: string) =>
          asEmployee(on, actor, `/v1/employees/${target.id}`, {
            method: change === "demote" ? "POST" : "DELETE",
            body: change === "demote" ? { role: "admin" } : undefined,
            headers: { "service-totp-code": code },
          });
        const answers = await Promise.all([act(round, x, y, codeX), act(round + 1, y, x, codeY)]);
        const winners = answers.filter((answer) => answer.status === 200).length;
        const refusals = answers.filter((answer) => answer.status !== 200).map(outcome);
        const allowedRefusals =
          change === "demote"
            ? ["409 err_conflict", "403 err_forbidden"]
            : ["409 err_conflict", "401 err_unauthenticated"];
        const [owners] = await query<{ active: number }>(
          `SELECT count(*)::int AS active FROM "Employee" WHERE role = 'owner' AND status = 'active'`,
        );
        expect
          .soft(
            {
              winners,
              unexpectedRefusals: refusals.filter((refusal) => !allowedRefusals.includes(refusal)),
              activeOwners: owners!.active,
            },
            `${change}, round ${round}: ${refusals}`,
          )
          .toEqual({ winners: 1, unexpectedRefusals: [], activeOwners: 1 });
      }
    }
    // The API says the same as the database: one active owner.
    const employees = await withKey(0, "/v1/employees");
    expect(employees.status, employees.body).toBe(200);
    expect(
      (employees.json() as unknown as { role: string; status: string }[]).filter(
        (employee) => employee.role === "owner" && employee.status === "active",
      ),
    ).toHaveLength(1);
  });

  test("one invitation accepted four times at once: one employee, signed in once; the other three refused", async () => {
    for (let round = 0; round < 15; round += 1) {
      const email = `invitee.${round}.${run}@acme.example`;
      const invited = await withKey(round, "/v1/employees", {
        method: "POST",
        body: { name: `Invitee ${round}`, email },
      });
      expect(invited.status, invited.body).toBe(201);
      const { id, invitationUrl } = invited.json() as { id: string; invitationUrl: string };
      const token = new URL(invitationUrl).searchParams.get("token");
      const answers = await atOnce(4, (i) =>
        call(round + i, "/v1/employees/invitations/accept", {
          method: "POST",
          body: { token, password: EMPLOYEE_PASSWORD },
        }),
      );
      const [row] = await query<{ status: string; sessions: number }>(
        `SELECT status, (SELECT count(*)::int FROM "Session" WHERE "employeeId" = e.id) AS sessions FROM "Employee" e WHERE email = $1`,
        [email],
      );
      expect.soft({ answers: outcomes(answers), ...row }, `round ${round}`).toEqual({
        answers: ["200", "404 err_not_found", "404 err_not_found", "404 err_not_found"],
        status: "active",
        sessions: 1,
      });
      expect((await withKey(round, `/v1/employees/${id}`)).json()).toMatchObject({ id, status: "active" });
    }
  });

  test("one TOTP code sent four times at once is accepted once; one recovery code signs in once", async () => {
    // Per round a fresh employee with 2FA. First the step-up: four regenerations of recovery codes
    // with one authenticator code, two per instance; then four sign-ins with one recovery code.
    for (let round = 0; round < 10; round += 1) {
      const employee = await newEmployee("viewer", { twoFactor: true });
      const code = await employee.authenticator!.next();
      const stepUps = await atOnce(4, (i) =>
        asEmployee(round + i, employee, "/v1/employees/totp/recovery_codes", {
          method: "POST",
          headers: { "service-totp-code": code },
        }),
      );
      const [codes] = await query<{ live: number }>(
        `SELECT count(*)::int AS live FROM "RecoveryCode" WHERE "employeeId" = $1 AND "usedAt" IS NULL`,
        [employee.id],
      );
      expect.soft({ answers: outcomes(stepUps), liveRecoveryCodes: codes!.live }, `TOTP, round ${round}`).toEqual({
        answers: ["200", "400 err_otp_invalid", "400 err_otp_invalid", "400 err_otp_invalid"],
        liveRecoveryCodes: 10,
      });
      const regenerated = stepUps.find((answer) => answer.status === 200);
      const recoveryCode = regenerated
        ? (regenerated.json().recoveryCodes as string[])[0]!
        : employee.recoveryCodes[0]!;
      const signIns = await atOnce(4, (i) =>
        call(round + i, "/v1/sessions", {
          method: "POST",
          body: { email: employee.email, password: EMPLOYEE_PASSWORD, totpCode: recoveryCode },
        }),
      );
      const [after] = await query<{ used: number; sessions: number }>(
        `SELECT (SELECT count(*)::int FROM "RecoveryCode" WHERE "employeeId" = $1 AND "usedAt" IS NOT NULL) AS used,
                (SELECT count(*)::int FROM "Session" WHERE "employeeId" = $1) AS sessions`,
        [employee.id],
      );
      // One session from accepting the invitation, one from the sign-in that won.
      expect.soft({ answers: outcomes(signIns), ...after }, `recovery code, round ${round}`).toEqual({
        answers: ["200", "400 err_otp_invalid", "400 err_otp_invalid", "400 err_otp_invalid"],
        used: 1,
        sessions: 2,
      });
    }
  });

  test("ten requests with one Idempotency-Key at once: one recipient made; every success answers it", async () => {
    // A recipient has no unique field of its own, so only the key keeps it from being made twice.
    for (let round = 0; round < 15; round += 1) {
      const name = `Recipient ${round} ${run}`;
      const send = (on: number) =>
        withKey(on, "/v1/sandbox/recipients", {
          method: "POST",
          body: { name },
          headers: { "idempotency-key": `races-${run}-${round}` },
        });
      const answers = await atOnce(10, send);
      const ids = [
        ...new Set(answers.filter((answer) => answer.status === 201).map((answer) => answer.json().id as string)),
      ];
      const stored = await query<{ id: string }>(`SELECT id FROM "Recipient" WHERE name = $1`, [name]);
      expect
        .soft(
          {
            refusals: answers.map(outcome).filter((answer) => answer !== "201" && answer !== "409 err_conflict"),
            successIds: ids.length,
            stored: stored.map((row) => row.id),
          },
          `round ${round}`,
        )
        .toEqual({ refusals: [], successIds: 1, stored: ids });
      // Settled now: a repeat on either instance replays the one recipient.
      const repeats = await atOnce(2, send);
      for (const repeat of repeats) {
        expect(repeat.status, repeat.body).toBe(201);
        expect(repeat.headers["idempotent-replayed"]).toBe("true");
        expect(repeat.json().id).toBe(ids[0]);
      }
    }
  });

  test("ten creations of one externalId at once: one 201, nine 409", async () => {
    for (let round = 0; round < 15; round += 1) {
      const externalId = `racer-${run}-${round}`;
      const answers = await atOnce(10, (i) =>
        withKey(round + i, "/v1/delegated_users", { method: "POST", body: { externalId } }),
      );
      const [stored] = await query<{ users: number }>(
        `SELECT count(*)::int AS users FROM "DelegatedUser" WHERE "externalId" = $1`,
        [externalId],
      );
      expect
        .soft({ answers: outcomes(answers), ...stored }, `round ${round}`)
        .toEqual({ answers: ["201", ...Array(9).fill("409 err_conflict")], users: 1 });
    }
  });

  test("pay-ins racing a virtual account's deactivation: none lands after it, every acknowledged one is kept", async () => {
    // Four payers (two per instance) pay in one after another until refused; once pay-ins flow, the
    // account is deactivated. Every pay-in answered 201 is in the database; none was sent after the
    // deactivation answered and accepted; and no pay-in row was made after the deactivation (its
    // deactivatedAt) or after its answer arrived (the deactivation's commit came before that).
    for (let round = 0; round < 12; round += 1) {
      const created = await withKey(round, "/v1/sandbox/virtual_accounts", {
        method: "POST",
        body: { currency: "EUR" },
      });
      expect(created.status, created.body).toBe(201);
      const accountId = created.json().id as string;
      const payIns: { sentAt: number; answer: Answer }[] = [];
      let flowing = () => {};
      const paymentsFlow = new Promise<void>((resolve) => (flowing = resolve));
      const payer = async (on: number) => {
        // Bounded, so a deactivation that never takes ends the round (and fails it) instead of the test.
        for (let i = 0; i < 100; i += 1) {
          const sentAt = Date.now();
          const answer = await withKey(on, `/v1/sandbox/virtual_accounts/${accountId}/pay_in`, {
            method: "POST",
            body: { amount: "1.00", currency: "EUR" },
          });
          payIns.push({ sentAt, answer });
          if (payIns.length >= 4) flowing();
          if (answer.status !== 201) return;
        }
      };
      const deactivate = async () => {
        await paymentsFlow;
        const answer = await withKey(round + 1, `/v1/virtual_accounts/${accountId}`, { method: "DELETE" });
        return { answer, answeredAt: Date.now() };
      };
      const [deactivation] = await Promise.all([deactivate(), ...[0, 1, 2, 3].map(payer)]);
      expect(deactivation.answer.status, deactivation.answer.body).toBe(200);
      expect(deactivation.answer.json()).toMatchObject({ id: accountId, isActive: false });

      const acknowledged = payIns
        .filter(({ answer }) => answer.status === 201)
        .map(({ answer }) => answer.json().id as string);
      const rows = await query<{ id: string; createdAt: number; deactivatedAt: number }>(
        `SELECT t.id, (extract(epoch FROM t."createdAt") * 1000)::float8 AS "createdAt", (extract(epoch FROM v."deactivatedAt") * 1000)::float8 AS "deactivatedAt"
           FROM "Transaction" t JOIN "VirtualAccount" v ON v.id = t."virtualAccountId" WHERE v.id = $1`,
        [accountId],
      );
      const stored = new Set(rows.map((row) => row.id));
      expect
        .soft(
          {
            unexpected: payIns
              .map(({ answer }) => outcome(answer))
              .filter((answer) => answer !== "201" && answer !== "409 err_conflict"),
            acceptedAfterDeactivationAnswered: payIns.filter(
              ({ sentAt, answer }) => sentAt > deactivation.answeredAt && answer.status === 201,
            ).length,
            acknowledgedMissing: acknowledged.filter((id) => !stored.has(id)),
            storedNotAcknowledged: rows.length - acknowledged.length,
            madeAfterDeactivatedAt: rows
              .filter((row) => row.createdAt > row.deactivatedAt)
              .map((row) => `${row.id} ${row.createdAt - row.deactivatedAt} ms after`),
            madeAfterDeactivationAnswered: rows
              .filter((row) => row.createdAt > deactivation.answeredAt)
              .map((row) => row.id),
          },
          `round ${round}: ${acknowledged.length} pay-ins acknowledged`,
        )
        .toEqual({
          unexpected: [],
          acceptedAfterDeactivationAnswered: 0,
          acknowledgedMissing: [],
          storedNotAcknowledged: 0,
          madeAfterDeactivatedAt: [],
          madeAfterDeactivationAnswered: [],
        });
      // Afterwards it refuses on both instances.
      expect(
        (
          await atOnce(2, (i) =>
            withKey(i, `/v1/sandbox/virtual_accounts/${accountId}/pay_in`, {
              method: "POST",
              body: { amount: "1.00", currency: "EUR" },
            }),
          )
        ).map(outcome),
      ).toEqual(["409 err_conflict", "409 err_conflict"]);
    }
  });

  test("two reviewers decide one information request at once under four-eyes approval: one decision, the one stored", async () => {
    // Four-eyes on (an admin's step-up); a reviewer starts each review, and two other compliance
    // officers, each allowed to decide, approve and reject it at the same moment on different instances.
    const admin = await newEmployee("admin", { twoFactor: true });
    const settings = await asEmployee(0, admin, "/v1/settings", {
      method: "POST",
      body: { fourEyesApproval: true },
      headers: { "service-totp-code": await admin.authenticator!.next() },
    });
    expect(settings.status, settings.body).toBe(200);
    const [reviewer, approver, rejecter] = await Promise.all([
      newEmployee("compliance"),
      newEmployee("compliance"),
      newEmployee("compliance"),
    ]);
    for (let round = 0; round < 12; round += 1) {
      const raised = await withKey(round, "/v1/sandbox/information_requests", {
        method: "POST",
        body: { kind: "due_diligence" },
      });
      expect(raised.status, raised.body).toBe(201);
      const id = raised.json().id as string;
      const decide = (on: number, employee: Employee, body: Record<string, string>) =>
        asEmployee(on, employee, `/v1/information_requests/${id}/status`, { method: "POST", body });
      const review = await decide(round, reviewer, { status: "on_review" });
      expect(review.status, review.body).toBe(200);
      if (round === 0) {
        // Four-eyes holds: the reviewer cannot decide, so the two deciders are the only ones who may.
        const own = await decide(1, reviewer, { status: "approved" });
        expect(own.status, own.body).toBe(403);
      }
      const answers = await Promise.all([
        decide(round, approver, { status: "approved" }),
        decide(round + 1, rejecter, { status: "rejected", reasonCode: "other", reason: "race" }),
      ]);
      const winner =
        answers[0]!.status === 200 ? { by: approver.id, status: "approved" } : { by: rejecter.id, status: "rejected" };
      const [row] = await query<{ status: string; decidedById: string; reviewerId: string }>(
        `SELECT status, "decidedById", "reviewerId" FROM "InformationRequest" WHERE id = $1`,
        [id],
      );
      const shown = await withKey(round + 1, `/v1/information_requests/${id}`);
      expect.soft({ answers: outcomes(answers), stored: row, shown: shown.json().status }, `round ${round}`).toEqual({
        answers: ["200", "409 err_conflict"],
        stored: { status: winner.status, decidedById: winner.by, reviewerId: reviewer.id },
        shown: winner.status,
      });
    }
  });

  test("four parallel rolls of one API key: one succeeds, the key has one successor", async () => {
    for (let round = 0; round < 15; round += 1) {
      const name = `rolled ${round} ${run}`;
      const issued = await withKey(round, "/v1/api_keys", {
        method: "POST",
        body: { name, expiresAt: inADay(), permissions: ["delegated_users:read"] },
      });
      expect(issued.status, issued.body).toBe(201);
      const keyId = issued.json().id as string;
      const answers = await atOnce(4, (i) =>
        withKey(round + i, `/v1/api_keys/${keyId}/roll`, {
          method: "POST",
          body: { expiresAt: inADay(), overlapSeconds: 60 },
        }),
      );
      const successor = answers.find((answer) => answer.status === 201)?.json().id;
      const keys = await query<{ id: string; rolledToId: string | null }>(
        `SELECT id, "rolledToId" FROM "ApiKey" WHERE name = $1 ORDER BY "createdAt", id`,
        [name],
      );
      expect
        .soft(
          { answers: outcomes(answers), keys: keys.length, rolledTo: keys.find((key) => key.id === keyId)?.rolledToId },
          `round ${round}`,
        )
        .toEqual({
          answers: ["201", "409 err_conflict", "409 err_conflict", "409 err_conflict"],
          keys: 2,
          rolledTo: successor,
        });
    }
  });
});
