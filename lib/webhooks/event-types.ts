// The event types a webhook endpoint can subscribe to (docs/api.md, Webhooks). Client-safe: the
// dashboard's checkboxes and the API's validation both read this list.

export const EVENT_TYPES = {
  "information_request.created": "A compliance information request was raised for a transfer or a KYC submission.",
  "information_request.status_changed":
    "An information request moved along its states (on review, approved, rejected, expired).",
  "information_request.assigned": "An information request was assigned to an employee, or unassigned.",
  "information_request.sla_breached": "An information request passed its due date while still open (once per request).",
  "information_request.note_added": "A note was added to an information request.",
  "information_request.document_added": "A document (evidence) was attached to an information request.",
  "kyc.submission.created": "A KYC submission was created, with its beneficial owners.",
  "kyc.agreement.accepted": "An account accepted a KYC agreement (document set).",
  "kyc.profile.updated": "An account's KYC applicant profile was updated.",
  "transaction.created": "A transaction (a pay-in, say) was recorded on a virtual account.",
  "transfer.created": "A transfer to a recipient was created.",
  "virtual_account.deactivated": "A virtual account was deactivated.",
  "recipient.deleted": "A recipient was deleted.",
  "delegated_user.created": "A delegated user was created.",
  "api_key.created": "An API key was issued (never with its secret).",
  "api_key.revoked": "An API key was revoked.",
  "api_key.leaked":
    "A secret-scanning report found an API key's secret public, and the key was revoked: the key plus `leak: { url, source }`.",
  "api_key.expiring": "An API key expires in 30, 7 or 1 days.",
  "employee.invited": "An employee was invited to the dashboard.",
  "employee.deactivated": "An employee was deactivated.",
  "audit.checkpoint": "A checkpoint sealed a batch of audit events (keep copies to prove the trail later).",
  "webhook.test": "A test event sent from the dashboard or the API to check an endpoint.",
} as const satisfies Record<string, string>;

export type EventType = keyof typeof EVENT_TYPES;

export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as EventType[];

export const isEventType = (value: string): value is EventType => Object.hasOwn(EVENT_TYPES, value);
