import { describe, expect, it } from "vitest";
import { POST as createSandboxAccount } from "@/app/v1/sandbox/accounts/route";
import { createDelegatedUser } from "@/lib/delegated-users/delegated-users";
import { withScope } from "@/lib/tenancy";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, expectError } from "@/lib/testing/http";
import { GET } from "./route";

const get = (id: string, options: Parameters<typeof call>[1] = {}) => call(GET, { params: { id }, ...options });

describe("GET /v1/delegated_users/{id}", () => {
  it("200: the delegated user", async () => {
    const { apiKey, scope } = await platformWithKey();
    const user = await withScope(scope, () => createDelegatedUser({ externalId: "customer-7" }));
    const response = await get(user.id, { apiKey });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: user.id, externalId: "customer-7", createdAt: user.createdAt.toISOString() });
  });

  it("200 by employee session", async () => {
    const { session, account } = await signedInEmployee();
    const user = await withScope({ platformId: account.id, accountId: account.id }, () =>
      createDelegatedUser({ externalId: "e" }),
    );
    expect((await get(user.id, { session })).status).toBe(200);
  });

  it("200 for a sub-account's user with Service-Account-Id; 404 without it", async () => {
    const { apiKey, account } = await platformWithKey();
    const { body: sub } = await call(createSandboxAccount, { method: "POST", apiKey, body: { name: "Sub" } });
    expect(sub.parentId).toBe(account.id);
    const user = await withScope({ platformId: account.id, accountId: sub.id }, () =>
      createDelegatedUser({ externalId: "sub" }),
    );
    expect((await get(user.id, { apiKey, headers: { "service-account-id": sub.id } })).status).toBe(200);
    expect((await get(user.id, { apiKey })).status).toBe(404);
  });

  it("404 for another platform's user, an unknown or a malformed id", async () => {
    const mine = await platformWithKey();
    const theirs = await platformWithKey();
    const theirUser = await withScope(theirs.scope, () => createDelegatedUser({ externalId: "theirs" }));
    for (const id of [theirUser.id, "du_doesnotexist", "acct_abc", "du_UPPER", "x".repeat(300)]) {
      const response = await get(id, { apiKey: mine.apiKey });
      expectError(response, 404, "err_not_found");
    }
    // Not even by naming the other platform's account.
    const across = await get(theirUser.id, {
      apiKey: mine.apiKey,
      headers: { "service-account-id": theirs.account.id },
    });
    expect(across.status).toBe(404);
  });
});
