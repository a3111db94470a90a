import { httpRequest, startReceiver, type Call, type Server } from "./fixtures";
import { expect, tenantOnTwoServers, test, twoServersOnOneDatabase } from "./postgresql-fixture";

// Two server processes on one PostgreSQL database, each running the SLA sweep (a pass every 100 ms
// here: SLA_SWEEP_INTERVAL_MS, which only a process the test runner started may set). Requests fall
// due while both run: each breach is announced exactly once (one timeline entry, one webhook event,
// one delivery), whichever process holds the sweep's lease, and however often it changes hands.

test.describe.serial("the SLA sweep with two server processes on one PostgreSQL database", () => {
  test.setTimeout(180_000);
  const { servers: started, query } = twoServersOnOneDatabase("sla", {
    SLA_SWEEP_INTERVAL_MS: "100",
    WEBHOOK_POLL_MS: "50",
  });

  test("each request that falls due is announced once: one timeline entry, one event, one delivery", async () => {
    const [a, b] = started();
    const { key, accountId } = await tenantOnTwoServers([a, b], "Tenant with an SLA");
    const withKey = (server: Server, pathname: string, init: Call = {}) =>
      httpRequest(`${server.baseURL}${pathname}`, { ...init, headers: { authorization: `Bearer ${key}` } });

    const receiver = await startReceiver();
    try {
      const endpoint = await withKey(a, "/v1/webhook_endpoints", {
        method: "POST",
        body: { url: receiver.url, events: ["information_request.sla_breached"] },
      });
      expect(endpoint.status, endpoint.body).toBe(201);

      // 40 requests falling due over the next two seconds (and one already past), while both sweep.
      const ids = Array.from({ length: 40 }, (_, index) => `ir_slae2e${String(index).padStart(14, "0")}`);
      await query(
        `INSERT INTO "InformationRequest" ("id", "accountId", "kind", "status", "dueAt")
         SELECT id, $2, 'due_diligence', 'requested', now() + (ordinality - 2) * interval '50 milliseconds'
         FROM unnest($1::text[]) WITH ORDINALITY AS due(id, ordinality)`,
        [ids, accountId],
      );

      await expect
        .poll(
          async () =>
            Number(
              (
                await query<{ count: string }>(
                  `SELECT count(*) FROM "InformationRequest" WHERE id = ANY($1) AND "slaBreachedAt" IS NOT NULL`,
                  [ids],
                )
              )[0]!.count,
            ),
          { timeout: 60_000 },
        )
        .toBe(ids.length);

      const timeline = await query<{ informationRequestId: string; count: string }>(
        `SELECT "informationRequestId", count(*) FROM "InformationRequestEvent"
         WHERE type = 'sla_breached' AND "informationRequestId" = ANY($1) GROUP BY 1`,
        [ids],
      );
      expect(timeline.map((row) => [row.informationRequestId, Number(row.count)]).sort()).toEqual(
        ids.map((id) => [id, 1]),
      );
      const events = await query<{ id: string; count: string }>(
        `SELECT "eventData"->>'id' AS id, count(*) FROM "WebhookDelivery"
         WHERE "eventType" = 'information_request.sla_breached' GROUP BY 1`,
      );
      expect(events.map((row) => [row.id, Number(row.count)]).sort()).toEqual(ids.map((id) => [id, 1]));

      // Delivered once each (the delivery workers of both processes share the deliveries, too).
      await expect.poll(() => receiver.received.length, { timeout: 60_000 }).toBe(ids.length);
      const delivered = receiver.received.map(
        (received) => (JSON.parse(received.body) as { data: { id: string } }).data.id,
      );
      expect(delivered.sort()).toEqual(ids);

      // One lease row, held by one of the two processes.
      const leases = await query<{ name: string }>(`SELECT name FROM "WorkerLease"`);
      expect(leases.map((lease) => lease.name)).toContain("sla-sweep");

      // The overdue queue as a CSV export, streamed by the real server, and audited with its row count.
      const exported = await withKey(b, "/v1/exports/information_requests?overdue=true&sort=dueAt");
      expect(exported.status, exported.body).toBe(200);
      expect(exported.headers["content-type"]).toBe("text/csv; charset=utf-8");
      expect(exported.headers["content-disposition"]).toMatch(/^attachment; filename="information-requests-/);
      const lines = exported.body.split("\r\n");
      expect(lines[0]).toMatch(/^id,accountId,kind,status,priority,assigneeId,dueAt,overdue,/);
      expect(lines.slice(1, -1).map((line) => line.split(",")[0])).toEqual(ids);
      await expect
        .poll(async () =>
          (
            await query<{ details: { rowCount: number } }>(
              `SELECT details FROM "AuditEvent" WHERE action = 'export.created' ORDER BY at DESC LIMIT 1`,
            )
          ).map((row) => row.details.rowCount),
        )
        .toEqual([ids.length]);
    } finally {
      await receiver.close();
    }
  });
});
