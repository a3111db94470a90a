import type { Mail } from "@/lib/mail/mailer";
import { env } from "@/lib/env";

// The service's e-mails, in plain text. The links in them are the ones the admin is shown, built on
// APP_ORIGIN when it is set (lib/http/public-origin.ts).

/** A mail that carries a one-time link to the employee it is for. */
type LinkMail = { to: string; name: string; url: string; expiresAt: Date };

/** The invitation mail for an invited employee as the invitation endpoints answer it. */
export const invitationMailFor = (invited: {
  email: string;
  name: string;
  invitationUrl: string;
  invitationExpiresAt: Date;
}) =>
  invitationMail({
    to: invited.email,
    name: invited.name,
    url: invited.invitationUrl,
    expiresAt: invited.invitationExpiresAt,
  });

const signature = () => `\n\n-- \n${env().TOTP_ISSUER}`;

export function invitationMail({ to, name, url, expiresAt }: LinkMail): Mail {
  return {
    kind: "invitation",
    to,
    subject: `You are invited to ${env().TOTP_ISSUER}`,
    text:
      `Hello ${name},\n\nyou have been invited to the ${env().TOTP_ISSUER} dashboard. Open this link to choose ` +
      `your password:\n\n${url}\n\nThe link works once, until ${expiresAt.toISOString()}. If you did not expect ` +
      `this invitation, ignore this e-mail.${signature()}`,
  };
}

export function passwordResetMail({ to, name, url, expiresAt }: LinkMail): Mail {
  return {
    kind: "password reset",
    to,
    subject: `Reset your ${env().TOTP_ISSUER} password`,
    text:
      `Hello ${name},\n\nan administrator created a link for you to set a new password:\n\n${url}\n\n` +
      `The link works once, until ${expiresAt.toISOString()}. Setting a new password signs you out everywhere. ` +
      `If you did not ask for this, tell your administrator.${signature()}`,
  };
}

export function keyExpiringMail({
  to,
  name,
  key,
  daysLeft,
}: {
  to: string;
  name: string;
  key: { id: string; name: string | null; prefix: string; expiresAt: Date };
  daysLeft: number;
}): Mail {
  const origin = env().APP_ORIGIN;
  const where = origin ? `\n\nRoll or replace it on the API keys page: ${new URL("/api-keys", origin)}` : "";
  const label = key.name ? `"${key.name}" (${key.prefix}..., ${key.id})` : `${key.prefix}... (${key.id})`;
  return {
    kind: "API key expiry",
    to,
    subject: `An API key you created expires in ${daysLeft} day${daysLeft === 1 ? "" : "s"}`,
    text:
      `Hello ${name},\n\nthe API key ${label} you created expires at ${key.expiresAt.toISOString()}.` +
      `${where}${signature()}`,
  };
}

/** The notice to an employee that an information request was assigned to them. */
export function assignmentMail({
  to,
  name,
  request,
  url,
  assignedBy,
}: {
  to: string;
  name: string;
  request: { id: string; kind: string; priority: string; dueAt: Date | string | null };
  url: string;
  /** Who assigned it, by name (an API key: its name or id). */
  assignedBy: string;
}): Mail {
  const kind = request.kind.replace("_", " ");
  const due = request.dueAt ? ` It is due at ${new Date(request.dueAt).toISOString()}.` : "";
  return {
    kind: "information request assignment",
    to,
    subject: `Information request ${request.id} was assigned to you`,
    text:
      `Hello ${name},\n\n${assignedBy} assigned the ${kind} information request ${request.id} ` +
      `(priority ${request.priority}) to you.${due}\n\nOpen it: ${url}${signature()}`,
  };
}

/**
 * The notice to a request's assignee that it passed its due date while still open. The link opens it
 * in the dashboard (in its sub-account, when it is one's); a full URL when APP_ORIGIN is set, else the path.
 */
export function slaBreachedMail({
  to,
  name,
  request,
  platformId,
}: {
  to: string;
  name: string;
  request: { id: string; kind: string; accountId: string; dueAt: Date };
  platformId: string;
}): Mail {
  const path = `/information-requests/${request.id}${request.accountId === platformId ? "" : `?account=${request.accountId}`}`;
  const origin = env().APP_ORIGIN;
  const link = origin ? new URL(path, origin).toString() : path;
  const kind = request.kind.replace("_", " ");
  return {
    kind: "SLA breach",
    to,
    subject: `An information request assigned to you is overdue (${request.id})`,
    text:
      `Hello ${name},\n\nthe ${kind} request ${request.id} assigned to you was due at ${request.dueAt.toISOString()} ` +
      `and is still open.\n\nOpen it: ${link}${signature()}`,
  };
}
