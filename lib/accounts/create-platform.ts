import { db } from "@/lib/db";
import { newId } from "@/lib/ids";

/** A new tenant: an account that is its own platform. */
export async function createPlatform({ name }: { name: string }) {
  const id = newId("acct");
  return db().account.create({ data: { id, platformId: id, name } });
}
