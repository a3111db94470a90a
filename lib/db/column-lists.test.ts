// The column lists of the domains' raw statements (lib/<domain>/store.ts) against the Prisma models (both generated clients) and the
// tables of the database the suite runs on: a column added to the schema, and not named by a raw
// statement as read or left out, fails here instead of answering 500.
import { describe, expect, it } from "vitest";
import { createPlatform } from "@/lib/accounts/platforms";
import { db } from "@/lib/db";
import { rawQuery } from "@/lib/db/raw-sql";
import {
  KEY_CHECK_ACCOUNT_COLUMNS,
  KEY_CHECK_COLUMNS,
  KEY_CHECK_PLATFORM_COLUMNS,
  KEY_LIST_COLUMNS,
  KEY_USAGE_COLUMNS,
  readKeyForCheck,
  readKeyList,
} from "@/lib/api-keys/store";
import { AUDIT_EVENT_INSERT_COLUMNS } from "@/lib/audit/store";
import type { ColumnList } from "@/lib/db/columns";
import { DELEGATED_USER_INSERT_COLUMNS, insertDelegatedUser } from "@/lib/delegated-users/store";
import { DELIVERY_INSERT_COLUMNS, LISTENING_ENDPOINT_COLUMNS } from "@/lib/webhooks/store";
import { databaseProvider } from "@/lib/env";
import { Prisma } from "@/lib/generated/prisma/client";
import { Prisma as PostgresqlPrisma } from "@/lib/generated/prisma-postgresql/client";
import { newId } from "@/lib/ids/generate";
import { issueApiKey } from "@/lib/api-keys/api-keys";
import { sha256 } from "@/lib/auth/tokens";
import { withScope } from "@/lib/tenancy";

const LISTS: Record<string, ColumnList<Record<string, unknown>>> = {
  KEY_CHECK_COLUMNS,
  KEY_CHECK_ACCOUNT_COLUMNS,
  KEY_CHECK_PLATFORM_COLUMNS,
  KEY_LIST_COLUMNS,
  KEY_USAGE_COLUMNS,
  DELEGATED_USER_INSERT_COLUMNS,
  AUDIT_EVENT_INSERT_COLUMNS,
  LISTENING_ENDPOINT_COLUMNS,
  DELIVERY_INSERT_COLUMNS,
};

/** A model's columns as a generated client knows them (its public `<Model>ScalarFieldEnum` export). */
const fieldsOf = (namespace: object, model: string) =>
  Object.keys((namespace as Record<string, object>)[`${model}ScalarFieldEnum`]!).sort();

/** A table's columns as the database has them. */
async function tableColumns(table: string): Promise<string[]> {
  const rows =
    databaseProvider() === "sqlite"
      ? await rawQuery<{ name: string }>(`SELECT "name" FROM pragma_table_info(:table)`, { table })
      : await rawQuery<{ name: string }>(
          `SELECT "column_name" AS "name" FROM information_schema.columns WHERE "table_schema" = current_schema() AND "table_name" = :table`,
          { table },
        );
  return rows.map((row) => row.name).sort();
}

describe("raw statements' column lists", () => {
  for (const [name, list] of Object.entries(LISTS)) {
    it(`${name}: read or left out, every column of ${list.model} is named once, as both clients and the database have it`, async () => {
      const named = [...list.columns, ...list.omitted].sort();
      expect(new Set(named).size).toBe(named.length);
      expect(named).toEqual(fieldsOf(Prisma, list.model));
      expect(named).toEqual(fieldsOf(PostgresqlPrisma, list.model));
      expect(named).toEqual(await tableColumns(list.model));
    });
  }

  it("each statement answers the columns it lists, and the insert writes a row Prisma reads back whole", async () => {
    const platform = await createPlatform({ name: "Raw rows" });
    await withScope({ platformId: platform.id, accountId: platform.id }, async () => {
      const { secret } = await issueApiKey({ createdBy: null, expiresAt: new Date(Date.now() + 86_400_000) });
      const [listed] = await readKeyList();
      expect(Object.keys(listed!).sort()).toEqual([...KEY_LIST_COLUMNS.columns].sort());
      const checked = await readKeyForCheck(sha256(secret), null);
      expect(Object.keys(checked!).sort()).toEqual(
        [
          ...KEY_CHECK_COLUMNS.columns,
          ...KEY_CHECK_ACCOUNT_COLUMNS.columns,
          ...KEY_CHECK_PLATFORM_COLUMNS.columns,
        ].sort(),
      );
      const user = { id: newId("du"), externalId: `raw-${Date.now()}`, createdAt: new Date() };
      await insertDelegatedUser(user, () => new Error("duplicate"));
      expect(await db().delegatedUser.findUniqueOrThrow({ where: { id: user.id } })).toEqual({
        ...user,
        accountId: platform.id,
      });
      await expect(insertDelegatedUser({ ...user, id: newId("du") }, () => new Error("duplicate"))).rejects.toThrow(
        "duplicate",
      );
    });
  });
});
