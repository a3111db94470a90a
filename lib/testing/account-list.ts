import type { z } from "zod";
import { expect, it } from "vitest";
import { createSubAccount } from "@/lib/accounts/accounts";
import type { Endpoint } from "@/lib/contract/endpoint";
import type { Handler } from "@/lib/http/route";
import { withScope, type Scope } from "@/lib/tenancy";
import { platformWithKey, signedInEmployee } from "@/lib/testing/factories";
import { call, type Call, type IdPage } from "@/lib/testing/http";

type PagedList = Endpoint & { response: z.ZodType<IdPage> };

/**
 * The tests every cursor-paged list of an account's own rows shares: an empty page for an account
 * with none, an employee's own rows by session, none of another platform's rows, and a
 * sub-account's rows with Service-Account-Id. `save` makes one row in a scope (`label` names it).
 */
export function accountListTests<E extends PagedList>(
  what: string,
  handler: Handler<E>,
  save: (scope: Scope, label?: string) => Promise<{ id: string }>,
) {
  const path = handler.endpoint?.path ?? "";
  const list = (options: Call) => call<IdPage>(handler, { ...options, path });
  const idsOf = (page: { body: IdPage }) => page.body.items.map((item) => item.id);

  it(`200 with an empty page for an account without ${what}`, async () => {
    const { apiKey } = await platformWithKey();
    expect((await list({ apiKey })).body).toEqual({ items: [], next: null });
  });

  it("200 from an employee session", async () => {
    const { account, session } = await signedInEmployee();
    const own = await save({ platformId: account.id, accountId: account.id });
    const response = await list({ session });
    expect(response.status).toBe(200);
    expect(idsOf(response)).toEqual([own.id]);
  });

  it(`never shows another platform's ${what}`, async () => {
    const { apiKey, scope } = await platformWithKey();
    const other = await platformWithKey();
    await save(other.scope, "theirs");
    const mine = await save(scope, "mine");
    expect(idsOf(await list({ apiKey }))).toEqual([mine.id]);
  });

  it(`Service-Account-Id lists the sub-account's ${what}`, async () => {
    const { apiKey, scope } = await platformWithKey();
    const sub = await withScope(scope, () => createSubAccount({ name: "Sub", parentId: scope.accountId }));
    const subRow = await save({ platformId: scope.platformId, accountId: sub.id });
    const own = await save(scope);
    expect(idsOf(await list({ apiKey, headers: { "service-account-id": sub.id } }))).toEqual([subRow.id]);
    expect(idsOf(await list({ apiKey }))).toEqual([own.id]);
  });
}
