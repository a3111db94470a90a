import { presentApiKey } from "@/lib/api-keys/schemas";
import { db, inTransaction, isUniqueViolation } from "@/lib/db";
import { emitEvent } from "@/lib/webhooks/events";
import { mailConfigured, sendMail } from "@/lib/mail/mailer";
import { keyExpiringMail } from "@/lib/mail/messages";

const DAY = 86_400_000;

/** api_key.expiring goes out this many days before a key expires, once each. */
export const EXPIRY_NOTICE_DAYS = [30, 7, 1] as const;

/**
 * Emits api_key.expiring for every live key that has come within 30, 7 or 1 days of its expiry and
 * has not had that notice yet (only the nearest one: a key issued for 5 days gets the 7-day notice,
 * not the 30-day one as well). The notice row and the event commit in one transaction, and the row's
 * key (apiKeyId, daysLeft) lets only one of several processes insert it: each notice goes out once.
 * `data` is the key as the API shows it (never its secret) plus `daysLeft`, whole days rounded up.
 * Run by the webhook worker's loop (lib/webhooks/worker.ts). Returns how many notices it sent.
 */
export async function sendExpiryNotices({ now = new Date() }: { now?: Date } = {}): Promise<number> {
  const keys = await db().apiKey.findMany({
    where: { revokedAt: null, expiresAt: { gt: now, lte: new Date(now.getTime() + EXPIRY_NOTICE_DAYS[0] * DAY) } },
    orderBy: { expiresAt: "asc" },
  });
  let sent = 0;
  for (const key of keys) {
    const left = key.expiresAt.getTime() - now.getTime();
    const notice = [...EXPIRY_NOTICE_DAYS].reverse().find((days) => left <= days * DAY)!;
    const already = await db().apiKeyExpiryNotice.findUnique({
      where: { apiKeyId_daysLeft: { apiKeyId: key.id, daysLeft: notice } },
      select: { apiKeyId: true },
    });
    if (already) continue;
    try {
      await inTransaction(async () => {
        await db().apiKeyExpiryNotice.create({ data: { apiKeyId: key.id, daysLeft: notice, sentAt: now } });
        await emitEvent(
          "api_key.expiring",
          { ...presentApiKey(key), daysLeft: Math.ceil(left / DAY) },
          { accountId: key.accountId, now },
        );
      });
      sent += 1;
    } catch (error) {
      // Another process sent this notice between our look and our insert.
      if (isUniqueViolation(error)) continue;
      throw error;
    }
    // After the notice committed, once, and outside its transaction: a slow or failing mail server
    // delays only this loop, and a failure is logged (lib/mail) without stopping the others.
    await mailExpiryNotice(key, Math.ceil(left / DAY));
  }
  return sent;
}

type NoticedKey = { id: string; name: string | null; prefix: string; expiresAt: Date } & KeyCreator;
type KeyCreator = { createdByType: "employee" | "api_key" | null; createdById: string | null };

/**
 * E-mails the key's creator, when e-mail is configured: the employee who issued it, or who issued the
 * key that issued it (at any depth). Keys of unknown provenance, or whose employee is no longer
 * active, are announced by the webhook alone.
 */
async function mailExpiryNotice(key: NoticedKey, daysLeft: number) {
  if (!mailConfigured()) return;
  const employeeId = await issuingEmployee(key);
  const employee = employeeId ? await db().employee.findUnique({ where: { id: employeeId } }) : null;
  if (employee?.status !== "active") return;
  await sendMail(keyExpiringMail({ to: employee.email, name: employee.name, key, daysLeft }));
}

async function issuingEmployee(key: KeyCreator): Promise<string | null> {
  let creator: KeyCreator | null = key;
  // Bounded: provenance is a tree, but a walk over stored data never trusts that blindly.
  for (let depth = 0; creator?.createdById && depth < 32; depth += 1) {
    if (creator.createdByType === "employee") return creator.createdById;
    creator = await db().apiKey.findUnique({
      where: { id: creator.createdById },
      select: { createdByType: true, createdById: true },
    });
  }
  return null;
}
