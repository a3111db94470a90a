import { describe, expect, it } from "vitest";
import { createRecipient, deleteRecipient } from "@/lib/recipients/recipients";
import { platformWithKey } from "@/lib/testing/factories";
import { accountListTests } from "@/lib/testing/account-list";
import { call, expectEachIdOnce } from "@/lib/testing/http";
import { withScope, type Scope } from "@/lib/tenancy";
import { GET } from "./route";

const list = (apiKey: string, query: Record<string, string> = {}, headers?: Record<string, string>) =>
  call(GET, { apiKey, headers, path: `/v1/recipients?${new URLSearchParams(query)}` });

const save = (scope: Scope, name = "Ada Lovelace") => withScope(scope, () => createRecipient({ name }));

describe("GET /v1/recipients", () => {
  accountListTests("recipients", GET, save);

  it("200: the account's recipients with every field; deleted ones are not listed", async () => {
    const { apiKey, scope } = await platformWithKey();
    const kept = await save(scope, "Grace Hopper");
    const deleted = await save(scope, "Leaving");
    await withScope(scope, () => deleteRecipient({ id: deleted.id }));
    const response = await list(apiKey);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      items: [
        { id: kept.id, name: "Grace Hopper", isActive: true, deletedAt: null, createdAt: kept.createdAt.toISOString() },
      ],
      next: null,
    });
  });

  it("pages through 25 rows with limit 10, skipping deleted rows, with no repeats or skips", async () => {
    const { apiKey, scope } = await platformWithKey();
    const live: string[] = [];
    for (let i = 0; i < 30; i += 1) {
      const recipient = await save(scope, `Recipient ${i}`);
      if (i % 6 === 5) await withScope(scope, () => deleteRecipient({ id: recipient.id }));
      else live.push(recipient.id);
    }
    expect(live).toHaveLength(25);
    await expectEachIdOnce((query) => list(apiKey, query), live, { limit: "10", pageCount: 3 });
  });
});
