"use client";

import { codeIssues, schemaResolver } from "@/components/schema-resolver";
import { maySeeDerived, missingReadPermission, type Permission, type ReadPermission } from "@/lib/auth/permissions";
import { EVENT_TYPE_NAMES, type EventType } from "@/lib/webhooks/event-types";
import { createWebhookEndpointInput, updateWebhookEndpointInput } from "@/lib/webhooks/schemas";

type Viewer = { permissions: readonly Permission[] };

/** The event types the form offers: those whose resource the signed-in employee may read (the API refuses the others, 403). */
export const offeredEventTypes = (viewer: Viewer): EventType[] =>
  EVENT_TYPE_NAMES.filter((type) => maySeeDerived(viewer, type));

/**
 * The endpoint's event types the employee may not read, each with the permission it needs. While there
 * are any, its URL and events are not theirs to change (the API refuses: nobody points subscriptions
 * they could not make at a new URL); its description still is.
 */
export const lockedEventTypes = (
  viewer: Viewer,
  subscribed: readonly string[],
): { type: string; permission: ReadPermission }[] =>
  subscribed.flatMap((type) => {
    const permission = missingReadPermission(viewer, type);
    return permission ? [{ type, permission }] : [];
  });

/** The values of the create and edit dialogs. */
export type EndpointFormValues = {
  url: string;
  description: string;
  /** Event type names, sent as they are: the API's schema names any it refuses ("events.3"). */
  events: string[];
  code: string;
};

/** The form field an API or schema path belongs to: one message over the whole checklist. */
export const formPath = (path: readonly PropertyKey[] | string): string => {
  const parts = typeof path === "string" ? path.split(".") : path.map(String);
  return parts[0] === "events" ? "events" : parts.join(".");
};

/** POST /v1/webhook_endpoints's body for the form's values (an empty description is left out). */
export const createBody = (values: EndpointFormValues) => ({
  url: values.url.trim(),
  description: values.description.trim() === "" ? undefined : values.description.trim(),
  events: values.events,
});

/**
 * POST /v1/webhook_endpoints/{id}'s body: everything the dialog shows, an emptied description included;
 * the description alone for an endpoint whose URL and events are locked (lockedEventTypes).
 */
export const updateBody = (values: EndpointFormValues, { locked = false }: { locked?: boolean } = {}) =>
  locked
    ? { description: values.description.trim() }
    : { url: values.url.trim(), description: values.description.trim(), events: values.events };

/** The create dialog's checks: the API's own input schema (lib/webhooks/schemas.ts), then the authenticator code. */
export const createEndpointResolver = schemaResolver<EndpointFormValues>(formPath, (values) => [
  ...(createWebhookEndpointInput.safeParse(createBody(values)).error?.issues ?? []),
  ...codeIssues(values.code),
]);

export const updateEndpointResolver = schemaResolver<EndpointFormValues>(formPath, (values) => [
  ...(updateWebhookEndpointInput.safeParse(updateBody(values)).error?.issues ?? []),
  ...codeIssues(values.code),
]);

/** The API paths the form shows under its fields (useApiForm); the rest go above the buttons. */
export const endpointFormFields = ["url", "description", "events", "code"] as const;
