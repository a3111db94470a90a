import { z } from "zod";
import { writeAuditEvent } from "@/lib/audit/trail";
import { looksLikeApiKey } from "@/lib/auth/api-key-secret";
import { sha256 } from "@/lib/auth/tokens";
import { revokeApiKey } from "@/lib/api-keys/api-keys";
import {
  apiKeySchema,
  leakAnswerSchema,
  leakLabelSchema,
  leakReportSchema,
  MAX_REPORTED_TOKENS,
  reportedTokenSchema,
} from "@/lib/api-keys/schemas";
import { verifyScanningSignature } from "@/lib/api-keys/secret-scanning-keys";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { currentScope, withScope } from "@/lib/tenancy";
import { emitResourceEvent } from "@/lib/webhooks/events";

// Leak reports in GitHub's secret-scanning partner format (docs/security.md, Leaked keys):
// GitHub finds one of our keys in a public place, posts it here signed with its key, and we revoke
// the key at once.

type ReportedToken = z.output<typeof reportedTokenSchema>;
type Label = z.output<typeof leakLabelSchema>["label"];
/** Who asked, for the audit records of the revocations. */
type Request = { ip: string | null; requestId: string };

/**
 * A signed report, answered per token in order. The signature is checked over the exact bytes before
 * anything reads them (401 when missing or wrong; 404 while SECRET_SCANNING_PUBLIC_KEYS is unset);
 * only then is the body parsed (400 when malformed or over MAX_REPORTED_TOKENS).
 */
export async function answerLeakReport(
  { body, identifier, signature }: { body: Uint8Array; identifier: string | null; signature: string | null },
  request: Request,
) {
  const keys = env().SECRET_SCANNING_PUBLIC_KEYS;
  // Unset: nothing could ever verify, so the route is as absent as an unknown one.
  if (!keys) throw new DomainError("not_found", "Secret-scanning reports are not accepted here");
  if (!verifyScanningSignature(keys, { identifier, signature, body }))
    throw new DomainError("unauthenticated", "The report's signature is missing or does not verify");
  const report = parseReport(body);
  const now = new Date();
  const answer: z.input<typeof leakAnswerSchema> = [];
  // One at a time, in order: a token reported twice in one report is revoked once and answered twice.
  for (const token of report)
    answer.push({ token_raw: token.token, token_type: token.type, label: await judge(token, now, request) });
  return answer;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function parseReport(body: Uint8Array): ReportedToken[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(UTF8.decode(body));
  } catch {
    throw new DomainError("bad_request", "The report is not valid UTF-8 JSON");
  }
  const result = leakReportSchema.safeParse(parsed);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const where = issue.path.length ? ` at ${issue.path.join(".")}` : "";
  throw new DomainError(
    "bad_request",
    `The report must be a JSON array of 1 to ${MAX_REPORTED_TOKENS} { token, type, url, source }: ${issue.message}${where}`,
  );
}

/**
 * true_positive for a live key of ours (revoked now), or for one a report with this same url already
 * revoked (GitHub sends a report again when our answer did not reach it). Anything else (another
 * platform's token, an unknown, revoked or expired key) is false_positive, with the same look-up
 * made for every token whatever its shape, so neither the answer nor its time tells which.
 */
async function judge(reported: ReportedToken, now: Date, request: Request): Promise<Label> {
  const key = await db().apiKey.findUnique({
    where: { secretHash: sha256(reported.token) },
    select: {
      id: true,
      accountId: true,
      revokedAt: true,
      expiresAt: true,
      leakUrl: true,
      account: { select: { platformId: true } },
    },
  });
  if (!key || !looksLikeApiKey(reported.token)) return "false_positive";
  if (key.revokedAt) return key.leakUrl === reported.url ? "true_positive" : "false_positive";
  if (key.expiresAt <= now) return "false_positive";
  const scope = { platformId: key.account.platformId, accountId: key.accountId };
  return withScope(scope, () => revokeLeaked(key.id, reported, now, request));
}

/** Revokes the key with the leak's url and source, audits it (never the token) and announces api_key.leaked. */
async function revokeLeaked(keyId: string, reported: ReportedToken, at: Date, request: Request): Promise<Label> {
  const leak = { url: reported.url, source: reported.source, at };
  const { key, revoked } = await revokeApiKey({ keyId, leak });
  // Revoked meanwhile by someone else: theirs is the record; a concurrent copy of this report still answers true.
  if (!revoked) return key.leak?.url === reported.url ? "true_positive" : "false_positive";
  const { platformId, accountId } = currentScope();
  await writeAuditEvent({
    actor: null,
    platformId,
    actedForAccountId: accountId,
    action: "api_key.leaked",
    targetId: key.id,
    ip: request.ip,
    status: 200,
    requestId: request.requestId,
    details: { url: reported.url, source: reported.source, type: reported.type },
  });
  await emitResourceEvent("api_key.leaked", apiKeySchema, key);
  return "true_positive";
}
