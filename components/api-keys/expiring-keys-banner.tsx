"use client";

import { labelOf, useApiKeys, type ApiKey } from "@/components/api-keys/use-api-keys";
import { DateTime } from "@/components/ui/format";

/** How far ahead the banner looks: the first api_key.expiring webhook goes out 30 days before. */
export const EXPIRY_WARNING_DAYS = 30;
const DAY_MS = 86_400_000;

/** Whole days left until `expiresAt`, rounded up (a key expiring in 4.2 days has "5 days left"; less than a day is 1). */
export const daysLeft = (expiresAt: string, now: number) => Math.ceil((new Date(expiresAt).getTime() - now) / DAY_MS);

/** Keys still working that stop within the warning window, soonest first. */
export function expiringKeys(keys: readonly ApiKey[], now = Date.now()) {
  return keys
    .filter((key) => !key.revokedAt)
    .map((key) => ({ key, days: daysLeft(key.expiresAt, now) }))
    .filter(({ key, days }) => new Date(key.expiresAt).getTime() > now && days <= EXPIRY_WARNING_DAYS)
    .sort((a, b) => a.key.expiresAt.localeCompare(b.key.expiresAt));
}

/** A warning above the API keys list naming each key that expires within 30 days, with the days it has left. */
export function ExpiringKeysBanner() {
  const keys = useApiKeys();
  const expiring = expiringKeys(keys.data ?? []);
  if (expiring.length === 0) return null;
  return (
    <section className="alert warn" aria-label="Keys expiring soon">
      <strong>
        {expiring.length === 1 ? "1 key expires" : `${expiring.length} keys expire`} within {EXPIRY_WARNING_DAYS} days.
      </strong>{" "}
      Issue a replacement (or roll the key) and deploy it before then: an expired key is refused.
      <ul style={{ margin: "0.4rem 0 0", paddingLeft: "1.2rem" }}>
        {expiring.map(({ key, days }) => (
          <li key={key.id}>
            <strong>{labelOf(key)}</strong> <code>{key.prefix}…</code>:{" "}
            {days === 1 ? "1 day left" : `${days} days left`} (expires <DateTime value={key.expiresAt} day />)
          </li>
        ))}
      </ul>
    </section>
  );
}
