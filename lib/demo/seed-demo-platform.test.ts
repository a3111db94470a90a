import { describe, expect, it } from "vitest";
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

    await expect(seedDemoPlatform()).rejects.toThrow(/fresh database/);
  });
});
