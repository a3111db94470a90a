import { mailConfigured, sendMail } from "@/lib/mail/mailer";
import { assignmentMail } from "@/lib/mail/messages";

// The e-mail a new assignee gets (docs/api.md, Information requests as cases): sent once the
// assignment committed, never inside its transaction, and a failed send never undoes it.

type NewAssignee = { id: string; name: string; email: string };
type AssignedRequest = { id: string; kind: string; priority: string; dueAt: Date | string | null };

/**
 * E-mails `assignee` that `request` is theirs now, with a link to it in the dashboard (acting for the
 * request's account when it is a sub-account's). Nothing when e-mail is not configured, or when they
 * assigned it to themselves.
 */
export async function notifyAssignee({
  assignee,
  request,
  by,
  origin,
  scope,
}: {
  assignee: NewAssignee | null;
  request: AssignedRequest;
  by: { type: "employee" | "api_key"; id: string; name?: string };
  /** Where people reach the dashboard (APP_ORIGIN, or the request's own origin). */
  origin: string;
  /** The tenant scope the request is in. */
  scope: { accountId: string; platformId: string };
}) {
  if (!assignee || !mailConfigured()) return;
  if (by.type === "employee" && by.id === assignee.id) return;
  const url = new URL(`/information-requests/${encodeURIComponent(request.id)}`, origin);
  if (scope.accountId !== scope.platformId) url.searchParams.set("account", scope.accountId);
  const assignedBy = by.type === "employee" && by.name ? by.name : `API key ${by.id}`;
  await sendMail(assignmentMail({ to: assignee.email, name: assignee.name, request, url: url.toString(), assignedBy }));
}
