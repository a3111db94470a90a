import { describe, expect, it } from "vitest";
import { GET as keyUsage } from "@/app/v1/api_keys/[key]/usage/route";
import { GET as listInformationRequests } from "@/app/v1/information_requests/route";
import { POST as signIn } from "@/app/v1/sessions/route";
import { GET as listTransactions } from "@/app/v1/transactions/route";
import { db } from "@/lib/db";
import { DEMO_OWNER, seedDemoPlatform } from "@/lib/demo/seed-demo-platform";
import { call, sessionFrom } from "@/lib/testing/http";

describe("seedDemoPlatform", () => {
  it("fills a fresh database with a platform the API serves, and refuses a second time", async () => {
    const { platform, subAccounts } = await seedDemoPlatform({ transactionsPerAccount: 20 });
    expect(subAccounts).toHaveLength(3);
    const statuses = await db().informationRequest.groupBy({ by: ["status"], where: { accountId: platform.id } });
    expect(statuses.map((row) => row.status).sort()).toEqual([
      "approved",
      "expired",
      "on_review",
      "rejected",
      "requested",
    ]);
    expect(await db().virtualAccount.count({ where: { accountId: platform.id, isActive: false } })).toBe(1);
    expect(await db().employee.count({ where: { status: "invited" } })).toBe(1);

    const signedIn = await call(signIn, {
      method: "POST",
      body: { email: DEMO_OWNER.email, password: DEMO_OWNER.password },
    });
    expect(signedIn.status).toBe(200);
    const session = sessionFrom(signedIn.headers);
    const transactions = await call(listTransactions, { session, path: "/v1/transactions?limit=100" });
    expect(transactions.body.items).toHaveLength(20);
    const subAccountRequests = await call(listInformationRequests, {
      session,
      headers: { "service-account-id": subAccounts[0]!.id },
    });
    expect(subAccountRequests.body.items.length).toBeGreaterThan(0);

    // Each key's chart has 30 days to show: mostly ok, with some of every other outcome across the keys.
    const totals: Record<string, number> = {};
    for (const key of await db().apiKey.findMany({ where: { accountId: platform.id }, select: { id: true } })) {
      const usage = await call(keyUsage, { session, params: { key: key.id } });
      expect(usage.status).toBe(200);
      const days = usage.body.days as Record<string, number | string>[];
      expect(days).toHaveLength(30);
      for (const day of days)
        for (const [outcome, count] of Object.entries(day))
          if (typeof count === "number") totals[outcome] = (totals[outcome] ?? 0) + count;
    }
    expect(totals.ok).toBeGreaterThan(10 * (totals.client_error! + totals.denied! + totals.rate_limited!));
    for (const outcome of ["client_error", "denied", "rate_limited"]) expect(totals[outcome]).toBeGreaterThan(0);

    await expect(seedDemoPlatform()).rejects.toThrow(/fresh database/);
  });
});
