// The tenancy walk: every /v1 route, called by a second platform (B) against a first one's (A) data.
// A credential sees its platform and nothing else: another platform's ids answer 404 (never 403),
// lists and creates show none of the other platform's data, and Service-Account-Id naming another
// platform's account answers 404. A's rows are compared before and after everything B did, and
// each refused call is then made with A's own credential, which succeeds: B's 404 comes from
// tenancy, not from validation. Every endpoint needs an entry in `fixtures` (a test fails otherwise),
// so a new route cannot silently skip the walk.
import { flushKeyUses } from "@/lib/api-keys/last-use";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createSubAccount } from "@/lib/accounts/accounts";
import { updateFeatureFlags } from "@/lib/accounts/feature-flags";
import { issueApiKey } from "@/lib/api-keys/api-keys";
import { sealBatch } from "@/lib/audit/seal/sealer";
import { auditSigningKey, recordSigningKey, signingKeyId, type AuditSigningKey } from "@/lib/audit/seal/signing-key";
import { KEY_PERMISSIONS } from "@/lib/auth/permissions";
import { createSession } from "@/lib/auth/sessions";
import { sha256 } from "@/lib/auth/tokens";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids/generate";
import { saveSsoConnection } from "@/lib/sso/connection";
import { createDelegatedUser } from "@/lib/delegated-users/delegated-users";
import { acceptInvitation, inviteEmployee } from "@/lib/employees/invitations";
import { startTotpEnrolment } from "@/lib/auth/two-factor";
import { allEndpoints } from "@/lib/endpoints";
import type { Endpoint } from "@/lib/contract/endpoint";
import type { Handler } from "@/lib/http/route";
import { raiseInformationRequest } from "@/lib/information-requests/information-requests";
import { attachInformationRequestDocument } from "@/lib/information-requests/documents";
import { addInformationRequestNote } from "@/lib/information-requests/notes";
import { updateApplicantProfile } from "@/lib/kyc/profile";
import { acceptAgreement, createKycSubmission } from "@/lib/kyc/submissions";
import { createRecipient } from "@/lib/recipients/recipients";
import { withScope } from "@/lib/tenancy";
import { csvObjects } from "@/lib/testing/csv";
import { apiKeyFor, inDays, PASSWORD, signedInEmployee, UNHURRIED } from "@/lib/testing/factories";
import { Authenticator, call, ORIGIN } from "@/lib/testing/http";
import { everyRoute, pathFor } from "@/lib/testing/routes";
import { createTransfer } from "@/lib/transfers/transfers";
import { createVirtualAccount, payInToVirtualAccount } from "@/lib/virtual-accounts/virtual-accounts";
import { EVENT_TYPE_NAMES } from "@/lib/webhooks/event-types";
import { createWebhookEndpoint } from "@/lib/webhooks/webhook-endpoints";

// --- Fixtures ------------------------------------------------------------------------------------

/** In every distinctive name, externalId, key and e-mail of platform A: finding it anywhere B can read is a leak. */
const mark = `zq${randomBytes(5).toString("hex")}`;
let sequence = 0;
const seq = () => ++sequence;

type Where = "platform" | "sub";

/** A small PDF holding `text`: evidence to attach. */
const pdfWith = (text: string) => new Uint8Array(Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`));

/** An upload's body: one PDF `file` part. */
function evidenceForm(fileName: string) {
  const form = new FormData();
  form.append("file", new Blob([pdfWith(fileName)], { type: "application/pdf" }), fileName);
  return form;
}

async function buildPlatformA() {
  const staff = await signedInEmployee({ totp: true });
  const platformId = staff.account.id;
  // Every permission a key may hold, so that keys reach every route they may use at all.
  const key = await apiKeyFor(platformId, {
    name: `A-${mark} auth key`,
    permissions: KEY_PERMISSIONS,
    rateLimit: UNHURRIED,
  });
  const inPlatform = <T>(work: () => Promise<T>) =>
    withScope({ platformId, accountId: platformId }, async () => await work());
  const sub = await inPlatform(() => createSubAccount({ name: `A-${mark} sub-account`, parentId: platformId }));
  const inSub = <T>(work: () => Promise<T>) => withScope({ platformId, accountId: sub.id }, async () => await work());
  const inScope = <T>(where: Where, work: () => Promise<T>) => (where === "sub" ? inSub(work) : inPlatform(work));

  // Webhook endpoints first, subscribed to everything: A's changes below fill their delivery logs with A's data.
  const webhook = await inPlatform(() =>
    createWebhookEndpoint({
      url: `https://a-${mark}.example.com/hooks`,
      description: `A-${mark} hook`,
      events: EVENT_TYPE_NAMES,
      enabled: true,
    }),
  );
  const subWebhook = await inSub(() =>
    createWebhookEndpoint({
      url: `https://a-${mark}-sub.example.com/hooks`,
      description: `A-${mark} sub hook`,
      events: EVENT_TYPE_NAMES,
      enabled: true,
    }),
  );

  const objects = await inPlatform(async () => {
    const delegatedUser = await createDelegatedUser({ externalId: `A-${mark}-user` });
    const invited = await inviteEmployee({
      name: `A-${mark} invitee`,
      email: `a-${mark}-invitee@example.com`,
      role: "viewer",
      origin: ORIGIN,
    });
    const virtualAccount = await createVirtualAccount({ currency: "EUR", key: `A-${mark}-va` });
    const payIn = await payInToVirtualAccount({
      idOrKey: virtualAccount.id,
      amount: "12.50",
      currency: "EUR",
      walletAddress: `A-${mark}-wallet`,
    });
    const recipient = await createRecipient({ name: `A-${mark} recipient` });
    const transfer = await createTransfer({ recipientId: recipient.id, amount: "7.25", currency: "EUR" });
    const submission = await createKycSubmission({
      type: "business",
      beneficiaries: [
        { type: "individual", country: "DE", roles: ["ubo", "director"], shareSize: 60, name: `A-${mark} owner` },
        { type: "business", country: "FR", roles: ["shareholder"], shareSize: 40, name: `A-${mark} holding` },
      ],
    });
    const agreement = await acceptAgreement({
      submissionId: submission.id,
      documentSetId: `A-${mark}-terms`,
      ipAddress: "203.0.113.7",
    });
    const informationRequest = await raiseInformationRequest({
      kind: "due_diligence",
      transferId: transfer.id,
      submissionId: submission.id,
    });
    const author = { type: "employee" as const, id: staff.employee.id };
    const note = await addInformationRequestNote({
      informationRequestId: informationRequest.id,
      body: `A-${mark} note`,
      by: author,
    });
    const document = await attachInformationRequestDocument({
      informationRequestId: informationRequest.id,
      fileName: `A-${mark}-evidence.pdf`,
      bytes: pdfWith(`A-${mark}`),
      by: author,
    });
    const extraKey = await issueApiKey({
      createdBy: { type: "employee", id: staff.employee.id },
      expiresAt: inDays(30),
      name: `A-${mark} extra key`,
    });
    const profile = await updateApplicantProfile({
      firstName: `Aurelia${mark}`,
      lastName: `Quill${mark}`,
      email: `aurelia.${mark}@example.com`,
      phone: "+4915112345678",
      address: { line1: `${mark} Street 1`, city: "Berlin", postalCode: "10115", country: "DE" },
    });
    await updateFeatureFlags({ accountId: platformId, featureFlags: { named: "forbid" } });
    return {
      delegatedUser,
      invited,
      virtualAccount,
      payIn,
      recipient,
      transfer,
      submission,
      agreement,
      informationRequest,
      note,
      document,
      extraKey,
      profile,
    };
  });

  // Objects of A's sub-account too: B must not reach them either, with or without Service-Account-Id.
  const subObjects = await inSub(async () => {
    const delegatedUser = await createDelegatedUser({ externalId: `A-${mark}-sub-user` });
    const virtualAccount = await createVirtualAccount({ currency: "EUR", key: `A-${mark}-sub-va` });
    const payIn = await payInToVirtualAccount({ idOrKey: virtualAccount.id, amount: "3.00", currency: "EUR" });
    const recipient = await createRecipient({ name: `A-${mark} sub recipient` });
    await updateApplicantProfile({ firstName: `Subrina${mark}` });
    return { delegatedUser, virtualAccount, payIn, recipient };
  });

  const sessionId = (await db().session.findUniqueOrThrow({ where: { tokenHash: sha256(staff.session) } })).id;
  await saveSsoConnection(platformId, {
    issuer: `https://login.a-${mark}.example`,
    clientId: `A-${mark} client`,
    clientSecret: `A-${mark} client secret`,
    allowedDomains: [`a-${mark}.example`],
    enforced: false,
  });
  const delivery = await db().webhookDelivery.findFirstOrThrow({ where: { webhookEndpointId: webhook.id } });
  const subDelivery = await db().webhookDelivery.findFirstOrThrow({ where: { webhookEndpointId: subWebhook.id } });
  return {
    staff,
    platformId,
    key,
    sub,
    inScope,
    sessionId,
    ...objects,
    subObjects,
    webhook,
    subWebhook,
    delivery,
    subDelivery,
    passkey: await passkeyOf(staff.employee.id),
  };
}

async function buildPlatformB() {
  const staff = await signedInEmployee({ totp: true });
  const platformId = staff.account.id;
  const key = await apiKeyFor(platformId, { name: "B walk key", permissions: KEY_PERMISSIONS, rateLimit: UNHURRIED });
  const inPlatform = <T>(work: () => Promise<T>) =>
    withScope({ platformId, accountId: platformId }, async () => await work());
  const sub = await inPlatform(() => createSubAccount({ name: "B sub-account", parentId: platformId }));
  const webhook = await inPlatform(() =>
    createWebhookEndpoint({ url: "https://b.example.com/hooks", events: EVENT_TYPE_NAMES, enabled: true }),
  );
  const objects = await inPlatform(async () => {
    const delegatedUser = await createDelegatedUser({ externalId: "B-user" });
    const virtualAccount = await createVirtualAccount({ currency: "EUR", key: "B-va" });
    const payIn = await payInToVirtualAccount({
      idOrKey: virtualAccount.id,
      amount: "1.00",
      currency: "EUR",
      walletAddress: "B-wallet",
    });
    const recipient = await createRecipient({ name: "B recipient" });
    const transfer = await createTransfer({ recipientId: recipient.id, amount: "2.00", currency: "EUR" });
    const submission = await createKycSubmission({
      type: "individual",
      beneficiaries: [{ type: "individual", country: "NL", roles: ["ubo"], shareSize: 100, name: "B owner" }],
    });
    const informationRequest = await raiseInformationRequest({
      kind: "endorsement",
      transferId: transfer.id,
      submissionId: submission.id,
    });
    const document = await attachInformationRequestDocument({
      informationRequestId: informationRequest.id,
      fileName: "B-evidence.pdf",
      bytes: pdfWith("B"),
      by: { type: "employee", id: staff.employee.id },
    });
    const extraKey = await issueApiKey({
      createdBy: { type: "employee", id: staff.employee.id },
      expiresAt: inDays(30),
      name: "B extra key",
    });
    await updateFeatureFlags({ accountId: platformId, featureFlags: { named: "discourage" } });
    // A second employee of B without 2FA, signed in through the invitation flow, for the enrolment routes.
    const invitation = await inviteEmployee({
      name: "B second employee",
      email: `b-second.${platformId}@example.com`,
      role: "admin",
      origin: ORIGIN,
    });
    return {
      delegatedUser,
      virtualAccount,
      payIn,
      recipient,
      transfer,
      submission,
      informationRequest,
      document,
      extraKey,
      invitation,
    };
  });
  const token = new URL(objects.invitation.invitationUrl).searchParams.get("token")!;
  const accepted = await acceptInvitation({ token, password: PASSWORD, ip: "127.0.0.1" });
  if (accepted.signIn !== "password") throw new Error("the invitation was accepted without a session");
  const secondSession = /=([^;]*)/.exec(accepted.cookie)![1]!;
  const delivery = await db().webhookDelivery.findFirstOrThrow({ where: { webhookEndpointId: webhook.id } });
  return {
    staff,
    platformId,
    key,
    sub,
    ...objects,
    webhook,
    delivery,
    second: accepted.employee,
    secondSession,
    throwawaySessionId: await throwawaySessionId(staff.employee.id),
    passkey: await passkeyOf(staff.employee.id),
  };
}

type A = Awaited<ReturnType<typeof buildPlatformA>>;
type B = Awaited<ReturnType<typeof buildPlatformB>>;
type F = { a: A; b: B };

/** A session of B's main employee that a test may sign out. */
async function throwawaySession(employeeId: string) {
  const { cookie } = await createSession({ employeeId, ip: "127.0.0.1" });
  return /=([^;]*)/.exec(cookie)![1]!;
}

/** The id of a new session of the employee (for the routes that end one by id). */
/** A passkey row of the employee (its key is never checked by the walk: only who may name it). */
async function passkeyOf(employeeId: string) {
  return db().passkey.create({
    data: {
      id: newId("pk"),
      employeeId,
      name: "walk passkey",
      credentialId: newId("wch"),
      publicKey: Buffer.alloc(0),
      counter: 0n,
      transports: "[]",
    },
  });
}

async function throwawaySessionId(employeeId: string) {
  const token = await throwawaySession(employeeId);
  return (await db().session.findUniqueOrThrow({ where: { tokenHash: sha256(token) } })).id;
}

// --- Calling -------------------------------------------------------------------------------------

type Cred = "key" | "session";
type Params = Record<string, string>;
type Route = { endpoint: Endpoint; handler: Handler };
type Caller = { apiKey: string; session: string; authenticator: Authenticator };

const keyOf = (endpoint: Endpoint) => `${endpoint.method} ${endpoint.path}`;
const routes = await everyRoute();
const routeByKey = new Map<string, Route>(routes.map((route) => [keyOf(route.endpoint), route]));

async function send(
  { endpoint, handler }: Route,
  caller: Caller,
  cred: Cred,
  options: {
    params?: Params;
    query?: Record<string, string>;
    body?: unknown;
    serviceAccountId?: string;
    session?: string;
  } = {},
) {
  const search = options.query && Object.keys(options.query).length ? `?${new URLSearchParams(options.query)}` : "";
  const response = await call(handler, {
    method: endpoint.method,
    path: pathFor(endpoint, options.params ?? {}) + search,
    params: options.params,
    ...(options.body instanceof FormData ? { form: options.body } : { body: options.body }),
    apiKey: cred === "key" ? caller.apiKey : undefined,
    session: cred === "session" ? (options.session ?? caller.session) : undefined,
    totp: cred === "session" && endpoint.totp ? nextTotp(caller.authenticator) : undefined,
    headers: options.serviceAccountId ? { "service-account-id": options.serviceAccountId } : undefined,
  });
  return response;
}

type Response = Awaited<ReturnType<typeof send>>;

/** A field of a walked answer's body, if the body is an object that has it. */
function fieldOf(body: unknown, name: string): unknown {
  return typeof body === "object" && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}

/** A string field the answer must have (an id, a secret); fails the test without it. */
function stringOf(response: Response, name: string): string {
  const value = fieldOf(response.body, name);
  if (typeof value !== "string") throw new Error(`no string ${name} in ${describeResponse(response)}`);
  return value;
}

/**
 * A fresh TOTP code, on one virtual clock shared by every authenticator of this file: each code is a
 * step later than the one before, across tests too. The platforms here live for the whole file,
 * while Authenticator.nextCode()'s clock starts over in each test (restoreMocks), which would land
 * on steps already spent. Date.now is shifted to the code's step, as the service reads it.
 */
let clockSteps = 0;
function nextTotp(authenticator: Authenticator): string {
  clockSteps += 1;
  const real = new Date().getTime(); // new Date() reads the real clock even while Date.now is mocked
  const shifted = real + clockSteps * 30_000;
  vi.spyOn(Date, "now").mockImplementation(() => shifted + (new Date().getTime() - real));
  return authenticator.codeAt(Math.floor(shifted / 1000));
}

/** Whether `cred` may call the route at all: keys never use employee-only routes or hold roles, owners or settings:write. */
const mayUse = (endpoint: Endpoint, cred: Cred) =>
  cred === "session" ||
  (endpoint.auth !== "session" && (!endpoint.permission || KEY_PERMISSIONS.includes(endpoint.permission)));

/** What B must get when it names A's object: 404, except where its credential is refused (403) before any look-up, whatever the id. */
const refusalFor = (endpoint: Endpoint, cred: Cred) =>
  mayUse(endpoint, cred) ? { status: 404, error_code: "err_not_found" } : { status: 403, error_code: "err_forbidden" };

const successOf = (endpoint: Endpoint) => endpoint.status ?? 200;

const describeResponse = (response: Response) => `${response.status} ${JSON.stringify(response.body)}`.slice(0, 400);

/** An id of the same shape that exists nowhere (`va_...` stays `va_...`; a key stays a key). */
function ghostOf(value: string) {
  const prefix = /^([a-z]+)_[a-z0-9]+$/.exec(value)?.[1];
  const random = Array.from(randomBytes(20), (byte) => "0123456789abcdefghijklmnopqrstuvwxyz"[byte % 36]).join("");
  return prefix ? `${prefix}_${random}` : `ghost-${random.slice(0, 12)}`;
}
const ghostParams = (params: Params) =>
  Object.fromEntries(Object.entries(params).map(([name, value]) => [name, ghostOf(value)]));

// --- What B may not see --------------------------------------------------------------------------

/** Every id, key, e-mail, hash and secret of A, collected from A's rows; plus `mark`. */
const aMarkers = new Set<string>();
const markerColumns = new Set([
  "id",
  "accountId",
  "platformId",
  "parentId",
  "employeeId",
  "submissionId",
  "transferId",
  "recipientId",
  "virtualAccountId",
  "key",
  "externalId",
  "email",
  "walletAddress",
  "prefix",
  "documentSetId",
  "createdById",
  "tokenHash",
  "secretHash",
  "codeHash",
  "passwordHash",
  "totpSecret",
  "totpPendingSecret",
  "requestId",
  "webhookEndpointId",
]);

/** A's markers found in a response (status, body and headers), after removing values B itself sent (`echoes`). */
function leaksIn(response: { body: unknown; headers: Headers }, echoes: string[] = []): string[] {
  let text = JSON.stringify({
    body: response.body,
    headers: [...response.headers].filter(([name]) => name !== "x-request-id"),
  });
  for (const echo of echoes) text = text.split(echo).join("");
  return [...aMarkers].filter((marker) => text.includes(marker));
}

/**
 * B's audit trail holds B's own requests only; A's ids may appear solely as the target of B's own
 * refused attempts, or in the filters of B's own exports (the values B itself sent).
 */
function auditLeaks(response: Response, f: F): string[] {
  const bActors = new Set([f.b.key.id, f.b.staff.employee.id, f.b.second.id]);
  const problems: string[] = [];
  for (const item of itemsOf(response.body) as Record<string, unknown>[]) {
    const ownExport = item.action === "export.created" && bActors.has(String(item.actorId));
    const leaked = leaksIn({ ...response, body: { ...item, targetId: null, ...(ownExport && { details: null }) } });
    if (leaked.length) problems.push(`audit event ${String(item.id)} shows ${leaked.join(", ")}`);
    if (item.accountId !== f.b.platformId)
      problems.push(`audit event ${String(item.id)} is of account ${String(item.accountId)}, not B's`);
    if (typeof item.targetId === "string" && aMarkers.has(item.targetId)) {
      const ownRefusal = bActors.has(String(item.actorId)) && (item.status === 404 || item.status === 403);
      if (!ownRefusal)
        problems.push(`audit event ${String(item.id)} targets A's ${item.targetId}: ${JSON.stringify(item)}`);
    }
  }
  return problems;
}

/** A's rows in every tenant model (audit events aside), to compare before and after B's calls. */
async function snapshotOf(platformId: string) {
  // On PostgreSQL A's key's lastUsedAt from A's own requests is written a few seconds later: now, so it is in `before`.
  await flushKeyUses();
  const accounts = await db().account.findMany({ where: { platformId }, orderBy: { id: "asc" } });
  const inAccounts = {
    where: { accountId: { in: accounts.map((account) => account.id) } },
    orderBy: { id: "asc" as const },
  };
  const employees = await db().employee.findMany(inAccounts);
  const ofEmployees = {
    where: { employeeId: { in: employees.map((employee) => employee.id) } },
    orderBy: { id: "asc" as const },
  };
  return {
    accounts,
    employees,
    sessions: await db().session.findMany(ofEmployees),
    recoveryCodes: await db().recoveryCode.findMany(ofEmployees),
    passkeys: await db().passkey.findMany(ofEmployees),
    apiKeys: await db().apiKey.findMany(inAccounts),
    delegatedUsers: await db().delegatedUser.findMany(inAccounts),
    virtualAccounts: await db().virtualAccount.findMany(inAccounts),
    transactions: await db().transaction.findMany(inAccounts),
    recipients: await db().recipient.findMany(inAccounts),
    transfers: await db().transfer.findMany(inAccounts),
    kycSubmissions: await db().kycSubmission.findMany(inAccounts),
    beneficiaries: await db().beneficiary.findMany(inAccounts),
    agreements: await db().agreement.findMany(inAccounts),
    applicantProfiles: await db().applicantProfile.findMany({ where: inAccounts.where, orderBy: { accountId: "asc" } }),
    informationRequests: await db().informationRequest.findMany(inAccounts),
    informationRequestNotes: await db().informationRequestNote.findMany(inAccounts),
    informationRequestDocuments: await db().informationRequestDocument.findMany(inAccounts),
    webhookEndpoints: await db().webhookEndpoint.findMany(inAccounts),
    webhookDeliveries: await db().webhookDelivery.findMany(inAccounts),
  };
}

// --- The table: one entry per endpoint -----------------------------------------------------------

/** B's list, which must show B's object `own`, then the same list filtered by each of A's values, which must come back empty. */
function listFilteredByA(own: (f: F) => string, filters: Record<string, (f: F) => Record<string, string>>): PlainEntry {
  return {
    kind: "plain",
    calls: [
      { label: "list", query: () => ({ limit: "100" }), own: (f) => [own(f)] },
      ...Object.entries(filters).map(([label, query]) => ({ label, query, empty: true })),
    ],
  };
}

/** An entry for a route naming one of A's platform objects in its path parameter `param`; B's own is the same kind of object. */
function onePlatformObject(
  label: string,
  param: string,
  pick: (side: A | B) => { id: string },
  { body, ...more }: Pick<Target, "fresh" | "shows"> & Pick<ParamEntry, "body"> = {},
): ParamEntry {
  return {
    kind: "params",
    targets: [{ label, account: "platform", params: (f) => ({ [param]: pick(f.a).id }), ...more }],
    ...(body ? { body } : {}),
    own: (f) => ({ [param]: pick(f.b).id }),
  };
}

/** An object of A named in the path. */
type Target = {
  label: string;
  /** Where the object lives: A's sub-account objects need Service-Account-Id in A's own (control) call. */
  account: Where;
  params: (f: F) => Params;
  /** A fresh copy of the object for A's control call, where the call changes it. */
  fresh?: (f: F) => Promise<Params>;
  /** A value A's control answer must contain (default: the first path parameter). */
  shows?: (f: F) => string;
  /** What A's control answer must contain when it acted on a fresh copy (default: the first path parameter). */
  freshShows?: string;
};

type ParamEntry = {
  kind: "params";
  targets: Target[];
  /** A body valid for A's object, so that B's 404 cannot come from validation. */
  body?: (f: F) => unknown;
  /** B's own object, for the Service-Account-Id check: the 404 there must come from the header alone. */
  own: (f: F) => Params;
};

type PlainCall = {
  label: string;
  query?: (f: F) => Record<string, string>;
  body?: (f: F) => unknown;
  creds?: Cred[];
  /** Which of B's sessions to use (default: the main one, with 2FA). */
  session?: (f: F) => string | Promise<string>;
  /** One of B's own accounts to act for. */
  serviceAccount?: (f: F) => string;
  status?: number;
  /** Values of A that B sent itself and may see echoed back (a name B chose to reuse). */
  echoes?: (f: F) => string[];
  /** The list must be empty (a filter naming A's object). */
  empty?: boolean;
  /** B's own ids the answer must contain: the call really listed B's data. */
  own?: (f: F) => string[];
  audit?: boolean;
  check?: (body: unknown, f: F) => void | Promise<void>;
};

type PlainEntry = {
  kind: "plain";
  calls: PlainCall[];
  /** Bodies naming A's objects: 404 for B, success for A. */
  refs?: { label: string; body: (f: F) => unknown }[];
};

type Entry = { kind: "public" } | ParamEntry | PlainEntry;

const itemsOf = (body: unknown): unknown[] => {
  if (Array.isArray(body)) return body;
  // The audit trail's NDJSON export: its events are the items (its checkpoints hold hashes only).
  if (typeof body === "string" && body.startsWith('{"type":"export"'))
    return body
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; event?: unknown })
      .flatMap((line) => (line.type === "event" ? [line.event] : []));
  // A CSV export (GET /v1/exports/...): its rows are the items, numbers read back as numbers.
  if (typeof body === "string")
    return csvObjects(body).map((row) => (row.status ? { ...row, status: Number(row.status) } : row));
  const items = fieldOf(body, "items");
  return Array.isArray(items) ? items : [];
};

const freshInvitee = async (f: F) => {
  const invited = await f.a.inScope("platform", () =>
    inviteEmployee({
      name: "A fresh invitee",
      email: `a-fresh-${seq()}.${mark}@example.com`,
      role: "viewer",
      origin: ORIGIN,
    }),
  );
  return { id: invited.id };
};
const freshKey = (f: F) => async () => {
  const key = await f.a.inScope("platform", () =>
    issueApiKey({ createdBy: null, expiresAt: inDays(30), name: "A fresh key" }),
  );
  return { key: key.id };
};
const freshVirtualAccount = (f: F, where: Where, by: "id" | "key") => async () => {
  const account = await f.a.inScope(where, () => createVirtualAccount({ currency: "EUR", key: `A-fresh-${seq()}` }));
  return { idOrKey: by === "id" ? account.id : account.key };
};
const virtualAccountTargets = (fresh: boolean): Target[] =>
  (["platform", "sub"] as const).flatMap((where) =>
    (["id", "key"] as const).map((by) => ({
      label: `A's ${where === "sub" ? "sub-account's " : ""}virtual account by ${by}`,
      account: where,
      params: (f: F) => {
        const account = where === "sub" ? f.a.subObjects.virtualAccount : f.a.virtualAccount;
        return { idOrKey: by === "id" ? account.id : account.key };
      },
      shows: (f: F) => (where === "sub" ? f.a.subObjects.virtualAccount : f.a.virtualAccount).id,
      ...(fresh ? { fresh: (f: F) => freshVirtualAccount(f, where, by)() } : {}),
    })),
  );

const freshWebhook = (where: Where) => async (f: F) => {
  const endpoint = await f.a.inScope(where, () =>
    createWebhookEndpoint({
      url: `https://a-fresh-${seq()}.example.com/hooks`,
      events: ["transfer.created"],
      enabled: true,
    }),
  );
  return { id: endpoint.id };
};
const webhookTargets = (fresh: boolean): Target[] =>
  (["platform", "sub"] as const).map((where) => ({
    label: where === "sub" ? "A's sub-account's webhook endpoint" : "A's webhook endpoint",
    account: where,
    params: (f: F) => ({ id: (where === "sub" ? f.a.subWebhook : f.a.webhook).id }),
    ...(fresh ? { fresh: freshWebhook(where) } : {}),
  }));

const fixtures: Record<string, Entry> = {
  // Public routes act for no tenant: listed so that a route turning public is noticed here.
  "POST /v1/setup": { kind: "public" },
  "POST /v1/sessions": { kind: "public" },
  "POST /v1/sessions/passkey/options": { kind: "public" },
  "GET /v1/sso/start": { kind: "public" },
  "GET /v1/sso/callback": { kind: "public" },
  "POST /v1/employees/invitations/accept": { kind: "public" },
  "POST /v1/employees/password_reset/accept": { kind: "public" },
  "GET /v1/openapi.json": { kind: "public" },
  "POST /v1/secret_scanning/reports": { kind: "public" },

  "GET /v1/accounts": { kind: "plain", calls: [{ label: "list", own: (f) => [f.b.platformId, f.b.sub.id] }] },
  "GET /v1/accounts/paginate": {
    kind: "plain",
    calls: [
      { label: "newest first", query: () => ({ limit: "100" }), own: (f) => [f.b.platformId, f.b.sub.id] },
      {
        label: "oldest first",
        query: () => ({ limit: "100", order: "asc" }),
        own: (f) => [f.b.platformId, f.b.sub.id],
      },
    ],
  },
  "POST /v1/accounts/{accountId}": {
    kind: "params",
    targets: [
      { label: "A's platform account", account: "platform", params: (f) => ({ accountId: f.a.platformId }) },
      { label: "A's sub-account", account: "platform", params: (f) => ({ accountId: f.a.sub.id }) },
    ],
    body: () => ({ featureFlags: { partner: "discourage" } }),
    own: (f) => ({ accountId: f.b.sub.id }),
  },
  "GET /v1/feature_flags": {
    kind: "plain",
    calls: [
      {
        label: "B's own flags",
        check: async (body, f) => {
          const stored = await db().account.findUniqueOrThrow({ where: { id: f.b.platformId } });
          expect(body).toEqual(stored.featureFlags);
        },
      },
    ],
  },
  "POST /v1/feature_flags": {
    kind: "plain",
    calls: [
      {
        label: "merge into B's flags",
        body: () => ({ partner: "prefer" }),
        check: async (body, f) => {
          const stored = await db().account.findUniqueOrThrow({ where: { id: f.b.platformId } });
          expect(body).toEqual(stored.featureFlags);
          expect(body).toEqual({ named: "discourage", partner: "prefer" });
        },
      },
    ],
  },
  "POST /v1/sandbox/platforms": {
    kind: "plain",
    calls: [{ label: "a new platform", body: () => ({ accountName: `B sandbox platform ${seq()}` }) }],
  },
  "POST /v1/sandbox/accounts": {
    kind: "plain",
    calls: [
      {
        label: "a sub-account of B",
        body: () => ({ name: `B sandbox account ${seq()}` }),
        check: (body, f) => expect(fieldOf(body, "parentId")).toBe(f.b.platformId),
      },
    ],
  },

  "GET /v1/api_keys": { kind: "plain", calls: [{ label: "list", own: (f) => [f.b.key.id, f.b.extraKey.id] }] },
  "POST /v1/api_keys": {
    kind: "plain",
    calls: [{ label: "issue", body: () => ({ expiresAt: inDays(10), name: `B issued ${seq()}` }) }],
  },
  "POST /v1/api_keys/{key}": {
    kind: "params",
    targets: [
      {
        label: "A's extra key",
        account: "platform",
        params: (f) => ({ key: f.a.extraKey.id }),
        fresh: (f) => freshKey(f)(),
      },
      {
        label: "A's key issued through the API",
        account: "platform",
        params: () => ({ key: sessionIssuedKeyId }),
        fresh: (f) => freshKey(f)(),
      },
    ],
    body: () => ({ cidrAllowlist: ["10.0.0.0/8"] }),
    own: (f) => ({ key: f.b.extraKey.id }),
  },
  "POST /v1/api_keys/{key}/roll": {
    kind: "params",
    targets: [
      {
        label: "A's extra key",
        account: "platform",
        params: (f) => ({ key: f.a.extraKey.id }),
        fresh: (f) => freshKey(f)(),
        freshShows: "A fresh key",
      },
    ],
    body: () => ({ expiresAt: inDays(10), overlapSeconds: 60 }),
    own: (f) => ({ key: f.b.extraKey.id }),
  },
  "GET /v1/api_keys/{key}/usage": {
    kind: "params",
    targets: [
      {
        label: "A's extra key",
        account: "platform",
        params: (f) => ({ key: f.a.extraKey.id }),
        // The answer names days, not the key: A's control answer shows today.
        shows: () => new Date().toISOString().slice(0, 10),
      },
    ],
    own: (f) => ({ key: f.b.extraKey.id }),
  },
  "DELETE /v1/api_keys/{key}": {
    kind: "params",
    targets: [
      {
        label: "A's extra key",
        account: "platform",
        params: (f) => ({ key: f.a.extraKey.id }),
        fresh: (f) => freshKey(f)(),
      },
      {
        label: "A's key issued through the API",
        account: "platform",
        params: () => ({ key: sessionIssuedKeyId }),
        fresh: (f) => freshKey(f)(),
      },
    ],
    own: (f) => ({ key: f.b.extraKey.id }),
  },

  "GET /v1/audit_events": {
    kind: "plain",
    calls: [
      { label: "first page", query: () => ({ limit: "100" }), audit: true },
      { label: "filtered by A's key as actor", query: (f) => ({ actorId: f.a.key.id }), empty: true },
      { label: "filtered by A's employee as actor", query: (f) => ({ actorId: f.a.staff.employee.id }), empty: true },
      {
        label: "filtered by an action A performed",
        query: () => ({ action: "sandbox.recipient.create", limit: "100" }),
        audit: true,
      },
    ],
  },

  "GET /v1/audit_events/checkpoints": {
    kind: "plain",
    calls: [
      {
        label: "newest first",
        query: () => ({ limit: "100" }),
        own: () => [bCheckpointId],
        check: (body) => expect(itemsOf(body)).toEqual([expect.objectContaining({ platformId: f.b.platformId })]),
      },
      { label: "oldest first", query: () => ({ limit: "100", order: "asc" }), own: () => [bCheckpointId] },
    ],
  },
  // A's checkpoints were signed with a key of A's alone (a marker): B's list must not name it.
  "GET /v1/audit_events/public_key": {
    kind: "plain",
    calls: [{ label: "B's signing keys", own: () => [auditSigningKey().id] }],
  },

  "GET /v1/exports/audit_events": {
    kind: "plain",
    calls: [
      { label: "everything", audit: true, check: (body) => expect(itemsOf(body).length).toBeGreaterThan(0) },
      {
        label: "the whole sealed trail as NDJSON",
        query: () => ({ format: "ndjson" }),
        audit: true,
        check: (body) => expect(String(body)).toMatch(/^\{"type":"export","format":"audit-ndjson\/1"/),
      },
      { label: "filtered by A's key as actor", query: (f) => ({ actorId: f.a.key.id }), empty: true },
      { label: "filtered by A's employee as actor", query: (f) => ({ actorId: f.a.staff.employee.id }), empty: true },
      {
        label: "filtered by an action A performed",
        query: () => ({ action: "sandbox.recipient.create" }),
        audit: true,
      },
    ],
  },

  "POST /v1/delegated_users": {
    kind: "plain",
    calls: [
      { label: "create", body: () => ({ externalId: `B-user-${seq()}` }) },
      {
        label: "A's externalId, in B's sub-account: created (201), no cross-tenant conflict",
        creds: ["key"],
        serviceAccount: (f) => f.b.sub.id,
        body: (f) => ({ externalId: f.a.delegatedUser.externalId }),
        echoes: (f) => [f.a.delegatedUser.externalId],
      },
    ],
  },
  "GET /v1/delegated_users": listFilteredByA((f) => f.b.delegatedUser.id, {
    "filtered by A's externalId": (f) => ({ externalId: f.a.delegatedUser.externalId }),
    "filtered by A's sub-account's externalId": (f) => ({ externalId: f.a.subObjects.delegatedUser.externalId }),
  }),
  "GET /v1/delegated_users/{id}": {
    kind: "params",
    targets: [
      { label: "A's delegated user", account: "platform", params: (f) => ({ id: f.a.delegatedUser.id }) },
      {
        label: "A's sub-account's delegated user",
        account: "sub",
        params: (f) => ({ id: f.a.subObjects.delegatedUser.id }),
      },
    ],
    own: (f) => ({ id: f.b.delegatedUser.id }),
  },

  "GET /v1/sessions/current": {
    kind: "plain",
    calls: [
      {
        label: "who am I",
        check: (body, f) => {
          expect(fieldOf(fieldOf(body, "employee"), "id")).toBe(f.b.staff.employee.id);
          expect(fieldOf(fieldOf(body, "account"), "id")).toBe(f.b.platformId);
        },
      },
    ],
  },
  "DELETE /v1/sessions/current": {
    kind: "plain",
    calls: [{ label: "sign out (a throwaway session of B)", session: (f) => throwawaySession(f.b.staff.employee.id) }],
  },
  "POST /v1/employees/totp": {
    kind: "plain",
    calls: [
      {
        label: "start enrolment (B's second employee, no 2FA yet)",
        session: (f) => f.b.secondSession,
        body: () => ({ password: PASSWORD }),
      },
    ],
  },
  "POST /v1/employees/totp/confirm": {
    kind: "plain",
    calls: [
      {
        label: "confirm enrolment (B's second employee)",
        creds: ["key", "session"],
        session: (f) => f.b.secondSession,
        body: async (f: F) => {
          const enrolled = await db().employee.findUniqueOrThrow({ where: { id: f.b.second.id } });
          if (enrolled.totpEnabledAt) return { code: "123456" };
          const { secret } = await startTotpEnrolment({
            employeeId: f.b.second.id,
            password: PASSWORD,
            ip: "127.0.0.1",
          });
          return { code: nextTotp(new Authenticator(secret)) };
        },
      },
    ],
  },
  "GET /v1/employees": {
    kind: "plain",
    calls: [{ label: "list", own: (f) => [f.b.staff.employee.id, f.b.second.id] }],
  },
  "POST /v1/employees": {
    kind: "plain",
    calls: [{ label: "invite", body: () => ({ name: "B invitee", email: `b-invitee-${seq()}@example.com` }) }],
  },
  "POST /v1/employees/{id}": {
    kind: "params",
    targets: [
      {
        label: "A's invited employee",
        account: "platform",
        params: (f) => ({ id: f.a.invited.id }),
        fresh: (f) => freshInvitee(f),
      },
    ],
    body: () => ({ role: "developer" }),
    own: (f) => ({ id: f.b.second.id }),
  },
  "DELETE /v1/employees/{id}": {
    kind: "params",
    targets: [
      {
        label: "A's invited employee",
        account: "platform",
        params: (f) => ({ id: f.a.invited.id }),
        fresh: (f) => freshInvitee(f),
      },
      {
        label: "A's signed-in employee",
        account: "platform",
        params: (f) => ({ id: f.a.staff.employee.id }),
        fresh: (f) => freshInvitee(f),
      },
    ],
    own: (f) => ({ id: f.b.second.id }),
  },
  "DELETE /v1/employees/{id}/totp": {
    kind: "params",
    targets: [
      {
        label: "A's employee with 2FA",
        account: "platform",
        params: (f) => ({ id: f.a.staff.employee.id }),
        fresh: async (f) => ({
          id: (await signedInEmployee({ platform: { id: f.a.platformId }, totp: true, role: "viewer" })).employee.id,
        }),
      },
    ],
    own: (f) => ({ id: f.b.second.id }),
  },
  "POST /v1/employees/{id}/invitation": {
    kind: "params",
    targets: [
      {
        label: "A's invited employee",
        account: "platform",
        params: (f) => ({ id: f.a.invited.id }),
        fresh: (f) => freshInvitee(f),
      },
    ],
    own: (f) => ({ id: f.b.second.id }),
  },
  "POST /v1/employees/{id}/password_reset": {
    kind: "params",
    targets: [
      {
        label: "A's active employee",
        account: "platform",
        params: (f) => ({ id: f.a.staff.employee.id }),
        fresh: async (f) => ({
          id: (await signedInEmployee({ platform: { id: f.a.platformId }, role: "viewer" })).employee.id,
        }),
      },
    ],
    own: (f) => ({ id: f.b.second.id }),
  },
  "POST /v1/employees/me/password": {
    kind: "plain",
    calls: [
      {
        label: "the same password again",
        body: () => ({ currentPassword: PASSWORD, newPassword: PASSWORD }),
        check: (body) => expect(fieldOf(body, "passwordChanged")).toBe(true),
      },
      {
        label: "a wrong current password",
        body: () => ({ currentPassword: "not the password", newPassword: PASSWORD }),
        status: 422,
      },
    ],
  },
  "POST /v1/employees/totp/recovery_codes": {
    kind: "plain",
    calls: [
      { label: "new codes for B's employee", check: (body) => expect(fieldOf(body, "recoveryCodes")).toHaveLength(10) },
    ],
  },
  "GET /v1/sessions": {
    kind: "plain",
    calls: [
      {
        label: "B's own sessions",
        check: async (body, f) => {
          const ids = (body as { id: string }[]).map((item) => item.id);
          const own = await db().session.findMany({ where: { id: { in: ids } }, select: { employeeId: true } });
          expect(new Set(own.map((row) => row.employeeId))).toEqual(new Set([f.b.staff.employee.id]));
        },
      },
    ],
  },
  "POST /v1/employees/passkeys/options": {
    kind: "plain",
    calls: [
      {
        label: "options for B's employee, excluding B's passkey only",
        check: (body, f) => {
          expect((body as { user: { name: string } }).user.name).toBe(f.b.staff.email);
          const excluded = (body as { excludeCredentials?: { id: string }[] }).excludeCredentials ?? [];
          expect(excluded.map((item) => item.id)).toEqual([f.b.passkey.credentialId]);
        },
      },
    ],
  },
  "POST /v1/employees/passkeys": {
    kind: "plain",
    calls: [
      {
        label: "an answer to no challenge",
        body: () => ({
          name: "walk",
          response: {
            id: "AAAA",
            rawId: "AAAA",
            type: "public-key",
            response: { clientDataJSON: "e30", attestationObject: "oA" },
          },
        }),
        status: 422,
      },
    ],
  },
  "GET /v1/employees/passkeys": {
    kind: "plain",
    calls: [
      {
        label: "B's own passkeys",
        check: (body, f) => expect((body as { id: string }[]).map((item) => item.id)).toEqual([f.b.passkey.id]),
      },
    ],
  },
  "DELETE /v1/employees/passkeys/{id}": {
    kind: "params",
    targets: [
      {
        label: "A's employee's passkey",
        account: "platform",
        params: (f) => ({ id: f.a.passkey.id }),
        fresh: async (f) => ({ id: (await passkeyOf(f.a.staff.employee.id)).id }),
      },
    ],
    own: (f) => ({ id: f.b.passkey.id }),
  },
  "POST /v1/step_up/passkey/options": {
    kind: "plain",
    calls: [
      {
        label: "B's own passkeys only",
        check: (body, f) => {
          const allowed = (body as { allowCredentials?: { id: string }[] }).allowCredentials ?? [];
          expect(allowed.map((item) => item.id)).toEqual([f.b.passkey.credentialId]);
        },
      },
    ],
  },
  "DELETE /v1/sessions/{id}": {
    kind: "params",
    targets: [
      {
        label: "A's employee's session",
        account: "platform",
        params: (f) => ({ id: f.a.sessionId }),
        fresh: async (f) => ({ id: await throwawaySessionId(f.a.staff.employee.id) }),
      },
    ],
    own: (f) => ({ id: f.b.throwawaySessionId }),
  },
  "GET /v1/settings": {
    kind: "plain",
    calls: [
      {
        label: "B's settings",
        check: (body) =>
          expect(body).toEqual({
            requireTwoFactor: false,
            fourEyesApproval: false,
            slaHours: { due_diligence: null, endorsement: null },
            defaultKeyRateLimit: { requests: 100, perSeconds: 1 },
            retention: { webhookPayloadDays: 30, sessionDays: 30, recordsYears: 5 },
            sso: null,
          }),
      },
    ],
  },
  "POST /v1/settings": {
    kind: "plain",
    calls: [
      {
        label: "B's settings, unchanged",
        body: () => ({ fourEyesApproval: false }),
        check: (body) => expect(fieldOf(body, "fourEyesApproval")).toBe(false),
      },
    ],
  },
  "POST /v1/settings/sso/test": {
    kind: "plain",
    calls: [{ label: "an issuer nobody answers at", body: () => ({ issuer: "https://127.0.0.1:9" }), status: 422 }],
  },
  "GET /v1/employees/{id}": {
    kind: "params",
    targets: [
      { label: "A's signed-in employee", account: "platform", params: (f) => ({ id: f.a.staff.employee.id }) },
      { label: "A's invited employee", account: "platform", params: (f) => ({ id: f.a.invited.id }) },
    ],
    own: (f) => ({ id: f.b.staff.employee.id }),
  },
  "GET /v1/employees/{id}/credentials": {
    kind: "params",
    targets: [{ label: "A's signed-in employee", account: "platform", params: (f) => ({ id: f.a.staff.employee.id }) }],
    own: (f) => ({ id: f.b.staff.employee.id }),
  },

  "GET /v1/information_requests": {
    kind: "plain",
    calls: [
      { label: "list", query: () => ({ limit: "100" }), own: (f) => [f.b.informationRequest.id] },
      { label: "of A's kind", query: () => ({ kind: "due_diligence", limit: "100" }) },
      { label: "assigned to A's employee", query: (f) => ({ assigneeId: f.a.staff.employee.id }), empty: true },
      { label: "by due date", query: () => ({ sort: "dueAt", limit: "100" }), own: (f) => [f.b.informationRequest.id] },
    ],
  },
  "POST /v1/information_requests/{id}": onePlatformObject(
    "A's information request",
    "id",
    (side) => side.informationRequest,
    { body: () => ({ priority: "high" }) },
  ),
  "GET /v1/information_requests/{id}/timeline": onePlatformObject(
    "A's information request",
    "id",
    (side) => side.informationRequest,
    // A timeline does not repeat its request's id: A's answer shows that it was found by its first entry.
    { shows: () => '"type":"created"' },
  ),
  "POST /v1/information_requests/bulk": {
    kind: "plain",
    calls: [
      {
        label: "B's own request",
        body: (f) => ({ ids: [f.b.informationRequest.id], action: "assign", priority: "high" }),
        own: (f) => [f.b.informationRequest.id],
        check: (body) => expect(fieldOf(body, "results")).toEqual([expect.objectContaining({ ok: true })]),
      },
      {
        // Bulk answers 200 whatever its items: A's request is an item not found, and stays as it was.
        label: "naming A's request",
        body: (f) => ({ ids: [f.a.informationRequest.id], action: "assign", priority: "urgent" }),
        echoes: (f) => [f.a.informationRequest.id],
        check: async (body, f) => {
          expect(fieldOf(body, "results")).toEqual([
            {
              id: f.a.informationRequest.id,
              ok: false,
              error: expect.objectContaining({ error_code: "err_not_found" }),
            },
          ]);
          const stored = await db().informationRequest.findUniqueOrThrow({ where: { id: f.a.informationRequest.id } });
          expect(stored.priority).not.toBe("urgent");
        },
      },
    ],
  },
  "GET /v1/exports/information_requests": {
    kind: "plain",
    calls: [
      { label: "everything", own: (f) => [f.b.informationRequest.id] },
      { label: "sorted by due date", query: () => ({ sort: "dueAt" }), own: (f) => [f.b.informationRequest.id] },
      { label: "assigned to A's employee", query: (f) => ({ assigneeId: f.a.staff.employee.id }), empty: true },
    ],
  },
  "GET /v1/information_requests/{id}": onePlatformObject(
    "A's information request",
    "id",
    (side) => side.informationRequest,
  ),
  "GET /v1/information_requests/{id}/notes": onePlatformObject(
    "A's information request",
    "id",
    (side) => side.informationRequest,
    { shows: (f) => f.a.note.id },
  ),
  "POST /v1/information_requests/{id}/notes": onePlatformObject(
    "A's information request",
    "id",
    (side) => side.informationRequest,
    { body: () => ({ body: "A walk's note" }), shows: () => "A walk's note" },
  ),
  "GET /v1/information_requests/{id}/documents": onePlatformObject(
    "A's information request",
    "id",
    (side) => side.informationRequest,
    { shows: (f) => f.a.document.id },
  ),
  "POST /v1/information_requests/{id}/documents": onePlatformObject(
    "A's information request",
    "id",
    (side) => side.informationRequest,
    { body: () => evidenceForm("walk-evidence.pdf"), shows: () => "walk-evidence.pdf" },
  ),
  "GET /v1/information_requests/{id}/documents/{docId}/content": {
    kind: "params",
    targets: [
      {
        label: "A's document",
        account: "platform",
        params: (f) => ({ id: f.a.informationRequest.id, docId: f.a.document.id }),
        shows: () => "%PDF-1.4",
      },
    ],
    own: (f) => ({ id: f.b.informationRequest.id, docId: f.b.document.id }),
  },
  "GET /v1/transfers/{id}": onePlatformObject("A's transfer", "id", (side) => side.transfer),
  "GET /v1/transfers/{id}/information_requests": onePlatformObject("A's transfer", "id", (side) => side.transfer),
  "POST /v1/information_requests/{id}/status": onePlatformObject(
    "A's information request",
    "id",
    (side) => side.informationRequest,
    {
      fresh: async (f) => {
        const request = await f.a.inScope("platform", () =>
          raiseInformationRequest({ kind: "due_diligence", transferId: f.a.transfer.id }),
        );
        return { id: request.id };
      },
      body: () => ({ status: "on_review" }),
    },
  ),
  "POST /v1/sandbox/information_requests": {
    kind: "plain",
    calls: [
      { label: "raise", body: () => ({ kind: "endorsement" }) },
      {
        label: "raise for B's transfer and submission",
        body: (f) => ({ kind: "due_diligence", transferId: f.b.transfer.id, submissionId: f.b.submission.id }),
      },
    ],
    refs: [
      { label: "A's transferId", body: (f) => ({ kind: "due_diligence", transferId: f.a.transfer.id }) },
      { label: "A's submissionId", body: (f) => ({ kind: "due_diligence", submissionId: f.a.submission.id }) },
      {
        label: "A's transferId and submissionId",
        body: (f) => ({ kind: "endorsement", transferId: f.a.transfer.id, submissionId: f.a.submission.id }),
      },
    ],
  },

  "POST /v1/kyc/submissions/{submissionId}/agreements": onePlatformObject(
    "A's KYC submission",
    "submissionId",
    (side) => side.submission,
    {
      fresh: async (f) => {
        const submission = await f.a.inScope("platform", () =>
          createKycSubmission({ type: "individual", beneficiaries: [] }),
        );
        return { submissionId: submission.id };
      },
      body: () => ({ documentSetId: "walk-terms-v1", ipAddress: "198.51.100.4" }),
    },
  ),
  "GET /v1/kyc/submissions/{submissionId}/beneficiaries": onePlatformObject(
    "A's KYC submission",
    "submissionId",
    (side) => side.submission,
    {
      shows: (f) => f.a.submission.beneficiaries[0]!.id,
    },
  ),
  "GET /v1/kyc/submissions": {
    kind: "plain",
    calls: [{ label: "list", query: () => ({ limit: "100" }), own: (f) => [f.b.submission.id] }],
  },
  "GET /v1/kyc/submissions/{submissionId}": onePlatformObject(
    "A's KYC submission",
    "submissionId",
    (side) => side.submission,
  ),
  "GET /v1/kyc/profile": {
    kind: "plain",
    // B never sets these fields (POST /v1/kyc/update_profile above sets firstName only): A's values must not show.
    calls: [
      {
        label: "B's own profile",
        check: (body) => expect(body).toMatchObject({ lastName: null, email: null, phone: null, address: null }),
      },
    ],
  },
  "POST /v1/kyc/update_profile": {
    kind: "plain",
    calls: [
      {
        label: "B's own profile",
        body: () => ({ firstName: "Bee" }),
        check: (body) => expect(body).toMatchObject({ firstName: "Bee", lastName: null, email: null, address: null }),
      },
    ],
  },
  "POST /v1/sandbox/kyc/submissions": {
    kind: "plain",
    calls: [
      {
        label: "create",
        body: () => ({
          type: "business",
          beneficiaries: [{ type: "individual", country: "BE", roles: ["director"], shareSize: 10 }],
        }),
      },
    ],
  },

  "GET /v1/recipients": {
    kind: "plain",
    calls: [
      { label: "list", query: () => ({ limit: "100" }), own: (f) => [f.b.recipient.id] },
      { label: "acting for B's sub-account", creds: ["key"], serviceAccount: (f) => f.b.sub.id },
    ],
  },
  "DELETE /v1/recipients/{id}": {
    kind: "params",
    targets: (["platform", "sub"] as const).map((where) => ({
      label: where === "sub" ? "A's sub-account's recipient" : "A's recipient",
      account: where,
      params: (f: F) => ({ id: (where === "sub" ? f.a.subObjects.recipient : f.a.recipient).id }),
      fresh: async (f: F) => ({
        id: (await f.a.inScope(where, () => createRecipient({ name: "A fresh recipient" }))).id,
      }),
    })),
    own: (f) => ({ id: f.b.recipient.id }),
  },
  "POST /v1/sandbox/recipients": {
    kind: "plain",
    calls: [{ label: "create", body: () => ({ name: `B recipient ${seq()}` }) }],
  },

  "GET /v1/transactions": listFilteredByA((f) => f.b.payIn.id, {
    "filtered by A's virtual account": (f) => ({ virtualAccountId: f.a.virtualAccount.id }),
    "filtered by A's sub-account's virtual account": (f) => ({ virtualAccountId: f.a.subObjects.virtualAccount.id }),
    "filtered by A's wallet address": (f) => ({ walletAddress: f.a.payIn.walletAddress! }),
  }),
  "POST /v1/sandbox/transfers": {
    kind: "plain",
    calls: [
      { label: "to B's recipient", body: (f) => ({ recipientId: f.b.recipient.id, amount: "4.00", currency: "EUR" }) },
    ],
    refs: [
      { label: "A's recipientId", body: (f) => ({ recipientId: f.a.recipient.id, amount: "4.00", currency: "EUR" }) },
      {
        label: "A's sub-account's recipientId",
        body: (f) => ({ recipientId: f.a.subObjects.recipient.id, amount: "4.00", currency: "EUR" }),
      },
    ],
  },

  "GET /v1/virtual_accounts": {
    kind: "plain",
    calls: [
      { label: "list", query: () => ({ limit: "100" }), own: (f) => [f.b.virtualAccount.id] },
      { label: "active only", query: () => ({ isActive: "true", limit: "100" }), own: (f) => [f.b.virtualAccount.id] },
      { label: "acting for B's sub-account", creds: ["key"], serviceAccount: (f) => f.b.sub.id },
    ],
  },
  "DELETE /v1/virtual_accounts/{idOrKey}": {
    kind: "params",
    targets: virtualAccountTargets(true),
    own: (f) => ({ idOrKey: f.b.virtualAccount.id }),
  },
  "POST /v1/sandbox/virtual_accounts": {
    kind: "plain",
    calls: [
      { label: "create", body: () => ({ currency: "EUR" }) },
      {
        label: "A's key, in B's sub-account: created (201), no cross-tenant conflict",
        creds: ["key"],
        serviceAccount: (f) => f.b.sub.id,
        body: (f) => ({ currency: "EUR", key: f.a.virtualAccount.key }),
        echoes: (f) => [f.a.virtualAccount.key],
      },
    ],
  },
  "GET /v1/webhook_endpoints/events": {
    kind: "plain",
    calls: [
      {
        label: "event types",
        check: (body) => expect((body as { type: string }[]).map((item) => item.type)).toEqual(EVENT_TYPE_NAMES),
      },
    ],
  },
  "GET /v1/webhook_endpoints": { kind: "plain", calls: [{ label: "list", own: (f) => [f.b.webhook.id] }] },
  "POST /v1/webhook_endpoints": {
    kind: "plain",
    calls: [
      { label: "create", body: () => ({ url: `https://b-${seq()}.example.com/hooks`, events: ["recipient.deleted"] }) },
    ],
  },
  "GET /v1/webhook_endpoints/{id}": {
    kind: "params",
    targets: webhookTargets(false),
    own: (f) => ({ id: f.b.webhook.id }),
  },
  "POST /v1/webhook_endpoints/{id}": {
    kind: "params",
    targets: webhookTargets(true),
    body: () => ({ description: "changed by the walk" }),
    own: (f) => ({ id: f.b.webhook.id }),
  },
  "DELETE /v1/webhook_endpoints/{id}": {
    kind: "params",
    targets: webhookTargets(true),
    own: (f) => ({ id: f.b.webhook.id }),
  },
  "GET /v1/webhook_endpoints/{id}/events": {
    kind: "params",
    targets: webhookTargets(false),
    own: (f) => ({ id: f.b.webhook.id }),
  },
  "POST /v1/webhook_endpoints/{id}/events/{eventId}/retry": {
    kind: "params",
    targets: [
      {
        label: "A's delivery",
        account: "platform",
        params: (f) => ({ id: f.a.webhook.id, eventId: f.a.delivery.id }),
        shows: (f) => f.a.delivery.id,
      },
      {
        label: "A's sub-account's delivery",
        account: "sub",
        params: (f) => ({ id: f.a.subWebhook.id, eventId: f.a.subDelivery.id }),
        shows: (f) => f.a.subDelivery.id,
      },
    ],
    own: (f) => ({ id: f.b.webhook.id, eventId: f.b.delivery.id }),
  },
  "POST /v1/webhook_endpoints/{id}/test": {
    kind: "params",
    targets: webhookTargets(false),
    own: (f) => ({ id: f.b.webhook.id }),
  },

  "POST /v1/sandbox/virtual_accounts/{idOrKey}/pay_in": {
    kind: "params",
    targets: virtualAccountTargets(false),
    body: () => ({ amount: "5.00", currency: "EUR" }),
    own: (f) => ({ idOrKey: f.b.virtualAccount.id }),
  },
};

function walkSigningKey(): AuditSigningKey {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const publicKeyPem = publicKey.export({ type: "spki", format: "pem" }).toString().trim();
  return { id: signingKeyId(publicKey), privateKey, publicKeyPem };
}

// --- The walk ------------------------------------------------------------------------------------

const allKeys = allEndpoints.map(keyOf);
const nonPublicKeys = allEndpoints.filter((endpoint) => endpoint.auth !== "public").map(keyOf);
const paramKeys = nonPublicKeys.filter((key) => key.includes("{"));
const plainKeys = nonPublicKeys.filter((key) => !key.includes("{"));
const refKeys = plainKeys.filter(
  (key) => fixtures[key]?.kind === "plain" && (fixtures[key] as PlainEntry).refs?.length,
);

let f: F;
let sessionIssuedKeyId = "";
let bCheckpointId = "";
let before: Awaited<ReturnType<typeof snapshotOf>>;

const asA = (): Caller => ({
  apiKey: f.a.key.secret,
  session: f.a.staff.session,
  authenticator: f.a.staff.authenticator!,
});
const asB = (): Caller => ({
  apiKey: f.b.key.secret,
  session: f.b.staff.session,
  authenticator: f.b.staff.authenticator!,
});

function routeOf(key: string): Route {
  const route = routeByKey.get(key);
  if (!route) throw new Error(`${key}: no route handler`);
  return route;
}

function entryOf<K extends Entry["kind"]>(key: string, kind: K): Extract<Entry, { kind: K }> {
  const entry = fixtures[key];
  if (!entry)
    throw new Error(
      `${key} has no entry in the tenancy walk's fixtures table: add one (which of A's objects it names, a valid body)`,
    );
  if (entry.kind !== kind) throw new Error(`${key}: the fixtures table says ${entry.kind}, the walk expected ${kind}`);
  return entry as Extract<Entry, { kind: K }>;
}

const credsFor = (endpoint: Endpoint): Cred[] => (["key", "session"] as const).filter((cred) => mayUse(endpoint, cred));

/** One test per key: `walk` pushes what it finds wrong with that endpoint into `problems`, which must stay empty. */
function walkEach<K extends Entry["kind"]>(
  keys: string[],
  name: string,
  kind: K,
  walk: (entry: Extract<Entry, { kind: K }>, route: Route, problems: string[]) => Promise<void>,
) {
  it.each(keys)(name, async (key) => {
    const entry = entryOf(key, kind);
    const route = routeOf(key);
    const problems: string[] = [];
    await walk(entry, route, problems);
    expect(problems).toEqual([]);
  });
}

beforeAll(async () => {
  const a = await buildPlatformA();
  const b = await buildPlatformB();
  f = { a, b };

  // Some audit events of A, made through the handlers with A's key and A's session.
  const flags = await send(routeOf("POST /v1/feature_flags"), asA(), "key", { body: { partner: "require" } });
  expect(flags.status).toBe(200);
  const recipient = await send(routeOf("POST /v1/sandbox/recipients"), asA(), "key", {
    body: { name: `A-${mark} recipient via API` },
  });
  expect(recipient.status).toBe(201);
  const issued = await send(routeOf("POST /v1/api_keys"), asA(), "session", {
    body: { expiresAt: inDays(20), name: `A-${mark} session key` },
  });
  expect(issued.status).toBe(201);
  sessionIssuedKeyId = stringOf(issued, "id");
  const listed = await send(routeOf("GET /v1/delegated_users"), asA(), "key");
  expect(listed.status).toBe(200);

  // Each platform's events sealed: A's with a key that signed nothing else (a marker), B's with the service's.
  const aSigningKey = walkSigningKey();
  await recordSigningKey(aSigningKey);
  const aCheckpoint = await sealBatch(a.platformId, aSigningKey, { now: () => new Date(), batchSize: 1000 });
  expect((await send(routeOf("POST /v1/feature_flags"), asB(), "key", { body: { partner: "require" } })).status).toBe(
    200,
  );
  await recordSigningKey(auditSigningKey());
  bCheckpointId = (await sealBatch(b.platformId, auditSigningKey(), { now: () => new Date(), batchSize: 1000 }))!.id;
  aMarkers.add(aSigningKey.id).add(aCheckpoint!.id).add(aCheckpoint!.hash);

  before = await snapshotOf(a.platformId);
  for (const rows of Object.values(before)) {
    for (const row of rows as Record<string, unknown>[]) {
      for (const [column, value] of Object.entries(row)) {
        if (markerColumns.has(column) && typeof value === "string" && value.length >= 8) aMarkers.add(value);
      }
    }
  }
  const auditEvents = await db().auditEvent.findMany({ where: { platformId: a.platformId } });
  expect(auditEvents.length).toBeGreaterThanOrEqual(3);
  for (const event of auditEvents) aMarkers.add(event.id).add(event.requestId);
  aMarkers
    .add(mark)
    .add(a.key.secret)
    .add(a.staff.session)
    .add(a.staff.authenticator!.secret)
    .add(stringOf(issued, "secret"));
  for (const code of a.staff.recoveryCodes) aMarkers.add(code);
  aMarkers.add(new URL(a.invited.invitationUrl).searchParams.get("token")!);
  // Sanity: B's own ids are not A's (the markers would otherwise flag B's own data).
  for (const own of [b.platformId, b.sub.id, b.key.id, b.delegatedUser.id, b.virtualAccount.id])
    expect(aMarkers.has(own)).toBe(false);
});

describe("tenancy walk: platform B against platform A's data", () => {
  it("has a fixture for every endpoint of the API (and none for endpoints that no longer exist)", () => {
    const missing = allKeys.filter((key) => !fixtures[key]);
    const stale = Object.keys(fixtures).filter((key) => !allKeys.includes(key));
    const publicMismatch = allEndpoints
      .filter(
        (endpoint) =>
          fixtures[keyOf(endpoint)] && (fixtures[keyOf(endpoint)]!.kind === "public") !== (endpoint.auth === "public"),
      )
      .map(keyOf);
    const kindMismatch = nonPublicKeys.filter(
      (key) =>
        fixtures[key] && fixtures[key]!.kind !== "public" && (fixtures[key]!.kind === "params") !== key.includes("{"),
    );
    expect({ missing, stale, publicMismatch, kindMismatch }).toEqual({
      missing: [],
      stale: [],
      publicMismatch: [],
      kindMismatch: [],
    });
    expect(routes).toHaveLength(allEndpoints.length);
  });

  describe("A's object in the path: 404 for B's key and B's session, exactly as for an id that exists nowhere", () => {
    walkEach(paramKeys, "%s", "params", async (entry, route, problems) => {
      for (const target of entry.targets) {
        const params = target.params(f);
        for (const cred of ["key", "session"] as const) {
          const expected = refusalFor(route.endpoint, cred);
          const response = await send(route, asB(), cred, { params, body: entry.body?.(f) });
          const ghost = await send(route, asB(), cred, { params: ghostParams(params), body: entry.body?.(f) });
          const where = `${target.label} (${JSON.stringify(params)}) with B's ${cred}`;
          if (
            response.status !== expected.status ||
            response.body?.error_code !== expected.error_code ||
            response.body?.http_code !== expected.status
          ) {
            problems.push(
              `${where}: expected ${expected.status} ${expected.error_code}, got ${describeResponse(response)}`,
            );
          }
          if (response.body?.message !== ghost.body?.message || response.status !== ghost.status) {
            problems.push(
              `${where}: answer differs from an id that exists nowhere: ${describeResponse(response)} vs ${describeResponse(ghost)}`,
            );
          }
          const leaked = leaksIn(response);
          if (leaked.length) problems.push(`${where}: the answer shows A's ${leaked.join(", ")}`);
        }
      }
    });
  });

  describe("no path parameter: B's answers show none of A's data", () => {
    walkEach(plainKeys, "%s", "plain", async (entry, route, problems) => {
      for (const plain of entry.calls) {
        for (const cred of plain.creds ?? (["key", "session"] as const)) {
          const response = await send(route, asB(), cred, {
            query: plain.query?.(f),
            body: await plain.body?.(f),
            session: plain.session ? await plain.session(f) : undefined,
            serviceAccountId: plain.serviceAccount?.(f),
          });
          const where = `${plain.label} with B's ${cred}`;
          const keyRefused = !mayUse(route.endpoint, cred);
          const expected = keyRefused ? 403 : (plain.status ?? successOf(route.endpoint));
          if (response.status !== expected)
            problems.push(`${where}: expected ${expected}, got ${describeResponse(response)}`);
          const leaked = plain.audit
            ? auditLeaks(response, f)
            : leaksIn(response, plain.echoes?.(f)).map((marker) => `shows A's ${marker}`);
          if (leaked.length) problems.push(`${where}: ${leaked.join("; ")} in ${describeResponse(response)}`);
          if (keyRefused || response.status !== expected) continue;
          if (plain.empty && itemsOf(response.body).length !== 0)
            problems.push(`${where}: expected no items, got ${describeResponse(response)}`);
          for (const own of plain.own?.(f) ?? []) {
            if (!JSON.stringify(response.body).includes(own))
              problems.push(`${where}: B's own ${own} is missing from ${describeResponse(response)}`);
          }
          await plain.check?.(response.body, f);
        }
      }
    });

    walkEach(refKeys, "%s naming A's objects in the body: 404 for B", "plain", async (entry, route, problems) => {
      for (const ref of entry.refs ?? []) {
        for (const cred of ["key", "session"] as const) {
          const response = await send(route, asB(), cred, { body: ref.body(f) });
          if (
            response.status !== 404 ||
            response.body?.error_code !== "err_not_found" ||
            response.body?.http_code !== 404
          ) {
            problems.push(
              `${ref.label} with B's ${cred}: expected 404 err_not_found, got ${describeResponse(response)}`,
            );
          }
        }
      }
    });
  });

  describe("Service-Account-Id naming A's account: 404 for B, on B's own objects, exactly as for an account that exists nowhere", () => {
    it.each(nonPublicKeys)("%s", async (key) => {
      const entry = fixtures[key];
      if (!entry || entry.kind === "public")
        throw new Error(`${key} has no entry in the tenancy walk's fixtures table`);
      const route = routeOf(key);
      const first = entry.kind === "plain" ? entry.calls[0] : undefined;
      const problems: string[] = [];
      const accounts = [
        ["A's platform account", f.a.platformId],
        ["A's sub-account", f.a.sub.id],
        ["an account that exists nowhere", ghostOf(f.a.platformId)],
      ] as const;
      for (const cred of ["key", "session"] as const) {
        const expected = refusalFor(route.endpoint, cred);
        const answers: Response[] = [];
        for (const [label, serviceAccountId] of accounts) {
          const response = await send(route, asB(), cred, {
            serviceAccountId,
            params: entry.kind === "params" ? entry.own(f) : undefined,
            body: entry.kind === "params" ? entry.body?.(f) : await first?.body?.(f),
            query: first?.query?.(f),
            session: key === "DELETE /v1/sessions/current" ? await throwawaySession(f.b.staff.employee.id) : undefined,
          });
          answers.push(response);
          const where = `Service-Account-Id: ${label} with B's ${cred}`;
          if (response.status !== expected.status || response.body?.error_code !== expected.error_code) {
            problems.push(
              `${where}: expected ${expected.status} ${expected.error_code}, got ${describeResponse(response)}`,
            );
          }
          const leaked = leaksIn(response, [serviceAccountId]);
          if (leaked.length) problems.push(`${where}: the answer shows A's ${leaked.join(", ")}`);
        }
        const messages = new Set(answers.map((answer) => `${answer.status} ${answer.body?.message}`));
        if (messages.size !== 1)
          problems.push(
            `B's ${cred}: A's accounts answer differently from an unknown one: ${[...messages].join(" | ")}`,
          );
      }
      expect(problems).toEqual([]);
    });
  });

  it("leaves A's rows exactly as they were (audit events aside), and A's audit trail holds none of B's requests", async () => {
    expect(await snapshotOf(f.a.platformId)).toEqual(before);
    const aActors = new Set([f.a.key.id, f.a.staff.employee.id]);
    const aEvents = await db().auditEvent.findMany({ where: { platformId: f.a.platformId } });
    expect(aEvents.filter((event) => !aActors.has(event.actorId ?? ""))).toEqual([]);
  });

  it("B's whole audit trail (every page) holds only B's own requests", async () => {
    const problems: string[] = [];
    let next: string | null = null;
    let pages = 0;
    do {
      const response = await send(routeOf("GET /v1/audit_events"), asB(), "key", {
        query: { limit: "100", order: "asc", ...(next ? { next } : {}) },
      });
      expect(response.status).toBe(200);
      problems.push(...auditLeaks(response, f));
      const cursor = fieldOf(response.body, "next");
      next = typeof cursor === "string" ? cursor : null;
      pages += 1;
    } while (next && pages < 100);
    expect(pages).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  describe("the same calls with A's own credential succeed (so B's 404 came from tenancy, not validation)", () => {
    walkEach(paramKeys, "%s", "params", async (entry, route, problems) => {
      for (const target of entry.targets) {
        for (const cred of credsFor(route.endpoint)) {
          const params = target.fresh ? await target.fresh(f) : target.params(f);
          const response = await send(route, asA(), cred, {
            params,
            body: entry.body?.(f),
            serviceAccountId: target.account === "sub" ? f.a.sub.id : undefined,
          });
          const where = `${target.label}${target.fresh ? " (a fresh copy)" : ""} with A's ${cred}`;
          if (response.status !== successOf(route.endpoint)) {
            problems.push(`${where}: expected ${successOf(route.endpoint)}, got ${describeResponse(response)}`);
            continue;
          }
          const shown = target.fresh
            ? (target.freshShows ?? Object.values(params)[0]!)
            : target.shows
              ? target.shows(f)
              : Object.values(params)[0]!;
          if (!JSON.stringify(response.body).includes(shown))
            problems.push(`${where}: ${shown} is missing from ${describeResponse(response)}`);
        }
      }
    });

    walkEach(refKeys, "%s naming A's objects in the body", "plain", async (entry, route, problems) => {
      for (const ref of entry.refs ?? []) {
        for (const cred of ["key", "session"] as const) {
          // A's sub-account's objects are reached by acting for the sub-account.
          const body = ref.body(f) as Record<string, unknown>;
          const inSub = Object.values(body).includes(f.a.subObjects.recipient.id);
          const response = await send(route, asA(), cred, { body, serviceAccountId: inSub ? f.a.sub.id : undefined });
          if (response.status !== successOf(route.endpoint)) {
            problems.push(
              `${ref.label} with A's ${cred}: expected ${successOf(route.endpoint)}, got ${describeResponse(response)}`,
            );
          }
        }
      }
    });
  });
});
