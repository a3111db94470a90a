import { db } from "@/lib/db";
import { createSubAccount } from "@/lib/accounts/accounts";
import { updateFeatureFlags } from "@/lib/accounts/feature-flags";
import { issueApiKey, revokeApiKey } from "@/lib/api-keys/api-keys";
import { OUTCOMES, type Outcome } from "@/lib/api-keys/usage";
import { createDelegatedUser } from "@/lib/delegated-users/delegated-users";
import { acceptInvitation, inviteEmployee } from "@/lib/employees/invitations";
import { setupPlatform } from "@/lib/employees/setup";
import {
  raiseInformationRequest,
  updateInformationRequest,
  updateInformationRequestStatus,
} from "@/lib/information-requests/information-requests";
import type { InformationRequestPriority, InformationRequestReasonCode } from "@/lib/information-requests/schemas";
import { updatePlatformSettings } from "@/lib/settings/settings";
import { updateApplicantProfile } from "@/lib/kyc/profile";
import { acceptAgreement, createKycSubmission } from "@/lib/kyc/submissions";
import { createRecipient, deleteRecipient } from "@/lib/recipients/recipients";
import { recordTransaction } from "@/lib/transactions/transactions";
import { createTransfer } from "@/lib/transfers/transfers";
import { createVirtualAccount, deactivateVirtualAccount } from "@/lib/virtual-accounts/virtual-accounts";
import { tenantDb, withScope, type Scope } from "@/lib/tenancy";

export const DEMO_OWNER = {
  name: "Olivia Marsh",
  email: "olivia@northwind.example",
  password: "northwind demo password",
};

/** A small seeded PRNG, so every demo database looks the same. */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    amount: (min: number, max: number) => (min + next() * (max - min)).toFixed(2),
  };
}

const DAY = 86_400_000;

/**
 * Fills a fresh database with a believable platform, through the same domain functions the API
 * uses: sub-accounts, employees, keys, delegated users, virtual accounts with two months of
 * transactions, recipients, transfers, KYC submissions with beneficial owners and information
 * requests in every state. Refuses a database that already has employees.
 */
export async function seedDemoPlatform({ origin = "http://localhost:3000", transactionsPerAccount = 60 } = {}) {
  if ((await db().employee.count()) > 0) {
    throw new Error(
      "This database already has employees; demo data goes into a fresh database (set DATABASE_URL to a new file).",
    );
  }
  const rng = random(20261122);
  const { account: platform, employee: owner } = await setupPlatform({
    ...DEMO_OWNER,
    accountName: "Northwind Payments",
    ip: null,
  });
  const root: Scope = { platformId: platform.id, accountId: platform.id };

  const { accounts: subAccounts, analystId } = await withScope(root, () =>
    seedPlatformAccount(platform.id, owner.id, origin),
  );
  // Three days to answer due diligence, five for an endorsement: the queue's due dates follow from these.
  await withScope(root, () => updatePlatformSettings({ slaHours: { due_diligence: 72, endorsement: 120 } }));

  const reviewers = [owner.id, analystId];
  for (const [index, scope] of [
    root,
    ...subAccounts.map((a) => ({ platformId: platform.id, accountId: a.id })),
  ].entries()) {
    await withScope(scope, () => seedMoneyAndCompliance(rng, index, transactionsPerAccount, reviewers));
  }
  return { platform, owner, subAccounts };
}

/** The platform's own account: feature flags, sub-accounts, staff, keys, delegated users and its applicant profile. */
async function seedPlatformAccount(platformId: string, ownerId: string, origin: string) {
  await updateFeatureFlags({ accountId: platformId, featureFlags: { named: "prefer", partner: "discourage" } });
  const accounts = [];
  for (const name of ["Northwind Europe", "Northwind Americas", "Northwind Marketplace"]) {
    accounts.push(await createSubAccount({ name, parentId: platformId }));
  }
  await updateFeatureFlags({ accountId: accounts[0]!.id, featureFlags: { named: "require", partner: "forbid" } });
  const analystId = await seedStaff(origin);
  await seedApiKeys(ownerId);
  for (let i = 0; i < 30; i++) await createDelegatedUser({ externalId: `cust_${1001 + i}` });
  await updateApplicantProfile({
    firstName: "Olivia",
    lastName: "Marsh",
    dateOfBirth: "1984-06-12",
    nationality: "GB",
    email: "compliance@northwind.example",
    phone: "+442071838750",
    address: { line1: "12 Finsbury Square", city: "London", postalCode: "EC2A 1AS", country: "GB" },
  });
  return { accounts, analystId };
}

/** A compliance analyst who accepted her invitation, and a developer still invited; answers the analyst's id. */
async function seedStaff(origin: string): Promise<string> {
  const analyst = await inviteEmployee({
    name: "Ava Okafor",
    email: "ava@northwind.example",
    role: "compliance",
    origin,
  });
  const token = new URL(analyst.invitationUrl).searchParams.get("token")!;
  await acceptInvitation({ token, password: "ava demo password 2026", ip: null });
  await inviteEmployee({ name: "Ian Brooks", email: "ian@northwind.example", role: "developer", origin });
  return analyst.id;
}

/** Midnight UTC `days` from today: a day picked in the dashboard's date field, as the key dialog sends it. */
const pickedDay = (days: number) => new Date(Math.floor(Date.now() / DAY + days) * DAY);

/**
 * Two live keys (one with an allowlist and a limit of its own) and a revoked one, all made by the
 * owner, each with 30 days of requests, so the key page's chart shows something.
 */
async function seedApiKeys(ownerId: string) {
  const createdBy = { type: "employee" as const, id: ownerId };
  const payouts = await issueApiKey({
    createdBy,
    name: "Payouts service",
    expiresAt: pickedDay(200),
    cidrAllowlist: ["10.20.0.0/16", "2001:db8:20::/48"],
    rateLimit: { requests: 20, perSeconds: 1 },
  });
  const reporting = await issueApiKey({ createdBy, name: "Reporting", expiresAt: pickedDay(90) });
  const old = await issueApiKey({ createdBy, name: "Legacy importer", expiresAt: pickedDay(30) });
  await revokeApiKey({ keyId: old.id });
  await seedKeyUsage([
    { id: payouts.id, shape: { ok: 1200, weekend: 0.3, errors: 0.02, deniedChance: 0.1, bursts: [3, 11, 12, 24] } },
    { id: reporting.id, shape: { ok: 150, weekend: 0, errors: 0.05, deniedChance: 0.2, bursts: [] } },
    { id: old.id, shape: { ok: 60, weekend: 1, errors: 0.01, deniedChance: 0, bursts: [], revokedToday: true } },
  ]);
  // Their last use, as the key path records it, so the page's "Last used" agrees with the chart.
  const lastUses = [
    { id: payouts.id, minutesAgo: 2, ip: "10.20.4.17", userAgent: "northwind-payouts/2.3 (node 24)" },
    { id: reporting.id, minutesAgo: 95, ip: "198.51.100.23", userAgent: "python-requests/2.32" },
    { id: old.id, minutesAgo: 26 * 60, ip: "203.0.113.80", userAgent: "curl/8.5.0" },
  ];
  for (const { id, minutesAgo, ip, userAgent } of lastUses)
    await db().apiKey.update({
      where: { id },
      data: { lastUsedAt: new Date(Date.now() - minutesAgo * 60_000), lastUsedIp: ip, lastUsedUserAgent: userAgent },
    });
}

/**
 * How a demo key is used: `ok` requests on a weekday (times `weekend` on Saturdays and Sundays), a share
 * of client errors, the chance of a day with a few denied ones, the days back with a burst past its
 * limit; a key revoked today sees only refusals today (its caller has not noticed yet).
 */
type UsageShape = {
  ok: number;
  weekend: number;
  errors: number;
  deniedChance: number;
  bursts: number[];
  revokedToday?: boolean;
};

/** ApiKeyUsageDay rows for the last 30 UTC days, today included; the same numbers every time for the same day. */
async function seedKeyUsage(keys: { id: string; shape: UsageShape }[]) {
  const rng = random(29);
  const today = Math.floor(Date.now() / DAY);
  const data = keys.flatMap(({ id, shape }) =>
    Array.from({ length: 30 }, (_, index) => usageRows(id, today - 29 + index, today, shape, rng)).flat(),
  );
  await db().apiKeyUsageDay.createMany({ data });
}

/** One key's rows for one day (days since the epoch); an outcome without requests has no row, as in use. */
function usageRows(apiKeyId: string, day: number, today: number, shape: UsageShape, rng: ReturnType<typeof random>) {
  const date = new Date(day * DAY);
  const weekend = date.getUTCDay() === 0 || date.getUTCDay() === 6;
  const volume = Math.round(shape.ok * (weekend ? shape.weekend : 1) * (0.75 + 0.5 * rng.next()));
  const revoked = shape.revokedToday === true && day === today;
  const counts: Record<Outcome, number> = {
    ok: revoked ? 0 : volume,
    // A revoked key's requests are refused before anything else is checked.
    client_error: revoked ? 0 : Math.round(volume * shape.errors * (0.5 + rng.next())),
    rate_limited: shape.bursts.includes(today - day) ? 30 + Math.floor(rng.next() * 150) : 0,
    denied: revoked ? volume : rng.next() < shape.deniedChance ? 1 + Math.floor(rng.next() * 8) : 0,
  };
  const text = date.toISOString().slice(0, 10);
  return OUTCOMES.filter((outcome) => counts[outcome] > 0).map((outcome) => ({
    apiKeyId,
    day: text,
    outcome,
    count: counts[outcome],
  }));
}

const currencies = ["EUR", "USD", "GBP"] as const;

/** `reviewers`: two employees; the first starts each review and the second decides it, as four-eyes approval would have it. */
async function seedMoneyAndCompliance(
  rng: ReturnType<typeof random>,
  index: number,
  transactionCount: number,
  reviewers: string[],
) {
  await seedLedger(rng, index, transactionCount);
  const transfers = await seedTransfers(rng);
  const submissions = await seedKycSubmissions();
  await seedInformationRequests(transfers, submissions, reviewers);
}

/** Virtual accounts in each currency, one legacy account deactivated after its history, and their transactions. */
async function seedLedger(rng: ReturnType<typeof random>, index: number, transactionCount: number) {
  const accounts = [];
  for (const currency of currencies)
    accounts.push(await createVirtualAccount({ currency, key: `VA-${index}-${currency}-MAIN` }));
  const legacy = await createVirtualAccount({ currency: "EUR", key: `VA-${index}-EUR-LEGACY` });
  const wallets = [
    "0x8ba1f109551bd432803012645ac136ddd64dba72",
    "0x71c7656ec7ab88b098defb751b7401b5f6d8976f",
    "TN3W4H6rK2ce4vX9YnFQHwKENnHjoxb3m9",
  ];

  for (let i = 0; i < transactionCount; i++) {
    const account = rng.pick([...accounts, legacy]);
    const type = rng.pick(["pay_in", "pay_in", "pay_in", "payout", "transfer", "fee"] as const);
    await recordTransaction({
      virtualAccountId: type === "pay_in" || type === "fee" ? account.id : null,
      walletAddress: type === "pay_in" && rng.next() < 0.5 ? rng.pick(wallets) : null,
      amount: type === "fee" ? rng.amount(0.5, 25) : rng.amount(20, 25_000),
      currency: account.currency,
      type,
      status: rng.pick(["completed", "completed", "completed", "pending", "failed"] as const),
      createdAt: new Date(Date.now() - rng.next() * 60 * DAY),
    });
  }
  await deactivateVirtualAccount({ idOrKey: legacy.key });
}

/** Recipients (the last one deleted after its transfers) and transfers to them. */
async function seedTransfers(rng: ReturnType<typeof random>) {
  const recipients = [];
  for (const name of [
    "Helios Logistics GmbH",
    "Aurora Freight Ltd",
    "Blue Finch Studio",
    "Kestrel Supplies BV",
    "Marlow & Co",
  ]) {
    recipients.push(await createRecipient({ name }));
  }
  const transfers = [];
  for (let i = 0; i < 8; i++) {
    transfers.push(
      await createTransfer({
        recipientId: rng.pick(recipients).id,
        amount: rng.amount(100, 50_000),
        currency: rng.pick(currencies),
      }),
    );
  }
  await deleteRecipient({ id: recipients.at(-1)!.id });
  return transfers;
}

/** Two business submissions and one individual one; the first has accepted the agreement. */
async function seedKycSubmissions() {
  const submissions = [
    await createKycSubmission({
      type: "business",
      beneficiaries: [
        { type: "individual", name: "Marta Lindqvist", country: "SE", roles: ["ubo", "director"], shareSize: 45 },
        { type: "individual", name: "Jonas Weber", country: "DE", roles: ["ubo", "shareholder"], shareSize: 30 },
        { type: "business", name: "Fjord Ventures AB", country: "SE", roles: ["shareholder"], shareSize: 25 },
      ],
    }),
    await createKycSubmission({
      type: "business",
      beneficiaries: [
        {
          type: "individual",
          name: "Priya Raman",
          country: "IN",
          roles: ["ubo", "director", "representative"],
          shareSize: 60,
        },
        { type: "individual", name: "Daniel Costa", country: "PT", roles: ["shareholder"], shareSize: 25 },
      ],
    }),
    await createKycSubmission({
      type: "individual",
      beneficiaries: [
        { type: "individual", name: "Olivia Marsh", country: "GB", roles: ["ubo", "representative"], shareSize: 100 },
      ],
    }),
  ];
  await acceptAgreement({
    submissionId: submissions[0]!.id,
    documentSetId: "terms-2026-10",
    ipAddress: "203.0.113.24",
  });
  return submissions;
}

/** Twelve information requests on the transfers and submissions, walked to each of the final states. */
async function seedInformationRequests(
  transfers: { id: string }[],
  submissions: { id: string }[],
  reviewers: string[],
) {
  const decisionReasons: Record<string, string | undefined> = {
    approved: "Source of funds documented: payroll statements for the last six months match the transfer.",
    rejected: "The documents provided do not show the beneficial owner; the transfer is refused.",
    expired: "No answer from the customer within 30 days.",
  };
  const decisionReasonCodes: Record<string, InformationRequestReasonCode | undefined> = {
    rejected: "insufficient_documents",
    expired: "no_response",
  };
  const finalStates = [
    [],
    ["on_review"],
    ["on_review", "approved"],
    ["on_review", "rejected"],
    ["expired"],
    ["on_review", "expired"],
  ] as const;
  for (let i = 0; i < 12; i++) {
    const request = await raiseInformationRequest({
      kind: i % 3 === 0 ? "endorsement" : "due_diligence",
      transferId: i % 2 === 0 ? transfers[i % transfers.length]!.id : null,
      submissionId: i % 2 === 1 ? submissions[i % submissions.length]!.id : null,
    });
    for (const status of finalStates[i % finalStates.length]!) {
      await updateInformationRequestStatus({
        id: request.id,
        status,
        reasonCode: decisionReasonCodes[status],
        reason: decisionReasons[status],
        by: { employeeId: status === "on_review" ? reviewers[0]! : reviewers[1]!, fourEyesApproval: true },
      });
    }
    await shapeAsCase(request.id, i, reviewers);
  }
}

const HOUR = 3_600_000;
/**
 * Hours from now each request falls due (negative: overdue while open; null: raised before the SLA was
 * set), and who works on it at what priority. Seven, against six final states: every mix turns up.
 */
const cases: { dueInHours: number | null; assignee: 0 | 1 | null; priority: InformationRequestPriority }[] = [
  { dueInHours: -30, assignee: 1, priority: "urgent" },
  { dueInHours: 3, assignee: 0, priority: "high" },
  { dueInHours: 50, assignee: null, priority: "normal" },
  { dueInHours: -4, assignee: 1, priority: "high" },
  { dueInHours: 1, assignee: null, priority: "urgent" },
  { dueInHours: 100, assignee: 0, priority: "low" },
  { dueInHours: null, assignee: 1, priority: "normal" },
];

/**
 * Gives a seeded request an assignee and a priority (through the API's own function, so the timeline
 * shows them), and moves its dates back so the queue has overdue requests and some due today: the
 * seed cannot wait days for real ones.
 */
async function shapeAsCase(id: string, index: number, reviewers: string[]) {
  const shape = cases[index % cases.length]!;
  const by = { type: "employee" as const, id: reviewers[0]! };
  const assigneeId = shape.assignee === null ? null : reviewers[shape.assignee]!;
  await updateInformationRequest({ id, assigneeId, priority: shape.priority, by });
  const request = await tenantDb().informationRequest.findUniqueOrThrow({ where: { id } });
  if (!request.dueAt) return;
  if (shape.dueInHours === null) {
    await tenantDb().informationRequest.update({ where: { id }, data: { dueAt: null } });
    return;
  }
  const sla = request.dueAt.getTime() - request.createdAt.getTime();
  const dueAt = new Date(Date.now() + shape.dueInHours * HOUR);
  await tenantDb().informationRequest.update({
    where: { id },
    data: { dueAt, createdAt: new Date(dueAt.getTime() - sla) },
  });
}
