import type { ResolverOptions } from "react-hook-form";
import { describe, expect, it } from "vitest";
import { deliveryFiltersOf } from "@/components/webhooks/delivery-filters";
import {
  createBody,
  createEndpointResolver,
  formPath,
  lockedEventTypes,
  offeredEventTypes,
  updateBody,
  type EndpointFormValues,
} from "@/components/webhooks/endpoint-form";
import { EVENT_TYPE_READ_PERMISSIONS, ROLE_PERMISSIONS, ROLES } from "@/lib/auth/permissions";
import { EVENT_TYPE_NAMES } from "@/lib/webhooks/event-types";
import { createWebhookEndpointInput, updateWebhookEndpointInput } from "@/lib/webhooks/schemas";

const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<EndpointFormValues>;
const values = (change: Partial<EndpointFormValues> = {}): EndpointFormValues => ({
  url: "https://hooks.example.com/due",
  description: "",
  events: ["transfer.created"],
  code: "123456",
  ...change,
});
const errorsOf = async (change: Partial<EndpointFormValues>) =>
  Object.fromEntries(
    Object.entries((await createEndpointResolver(values(change), undefined, options)).errors).map(([name, error]) => [
      name,
      error?.message,
    ]),
  );

describe("the endpoint form", () => {
  it("sends what the API's own schemas accept", () => {
    expect(createWebhookEndpointInput.parse(createBody(values({ description: "  Payouts  " })))).toMatchObject({
      description: "Payouts",
      events: ["transfer.created"],
    });
    expect(JSON.parse(JSON.stringify(createBody(values())))).not.toHaveProperty("description");
    // Emptied in the edit dialog: sent empty, which the API reads as "clear it".
    expect(updateWebhookEndpointInput.parse(updateBody(values({ description: " " })))).toMatchObject({
      description: "",
    });
  });

  it("asks for at least one event type, a URL and a six-digit code before calling the API", async () => {
    expect(await errorsOf({})).toEqual({});
    // The API's own messages: the form runs the API's input schema.
    expect(await errorsOf({ events: [] })).toEqual({ events: "must name at least one event type" });
    expect(await errorsOf({ url: "" })).toEqual({ url: "is required" });
    expect(await errorsOf({ url: "ftp://example.com/x" })).toEqual({ url: "must use https" });
    expect(await errorsOf({ url: "https://169.254.169.254/latest" })).toEqual({
      url: expect.stringMatching(/metadata/),
    });
    expect(Object.keys(await errorsOf({ code: "12" }))).toEqual(["code"]);
  });

  it("puts the API's per-event errors over the whole checklist", () => {
    expect(formPath("events.3")).toBe("events");
    expect(formPath(["events", 0])).toBe("events");
    expect(formPath("url")).toBe("url");
  });
});

describe("the event types offered to a role", () => {
  it.each(ROLES)("%s is offered exactly the event types whose resource the role may read", (role) => {
    const permissions = ROLE_PERMISSIONS[role];
    expect(offeredEventTypes({ permissions })).toEqual(
      EVENT_TYPE_NAMES.filter((type) => permissions.includes(EVENT_TYPE_READ_PERMISSIONS[type])),
    );
  });

  it("a developer is offered no kyc.*, information_request.* or employee.* events, and an endpoint hearing them is locked to its description", () => {
    const developer = { permissions: ROLE_PERMISSIONS.developer };
    expect(offeredEventTypes(developer).filter((type) => /^(kyc|information_request|employee)\./.test(type))).toEqual(
      [],
    );
    expect(lockedEventTypes(developer, ["transfer.created", "kyc.profile.updated", "employee.invited"])).toEqual([
      { type: "kyc.profile.updated", permission: "kyc:read" },
      { type: "employee.invited", permission: "employees:read" },
    ]);
    expect(lockedEventTypes(developer, ["transfer.created"])).toEqual([]);
    expect(updateBody(values({ description: " Payouts " }), { locked: true })).toEqual({ description: "Payouts" });
  });
});

describe("the delivery filters in the URL", () => {
  it("keeps dates as written and turns on failed-only for true alone", () => {
    const params = (query: string) => new URLSearchParams(query);
    expect(deliveryFiltersOf(params("onlyFailed=true&startDate=2026-11-01&endDate=2026-11-02"))).toEqual({
      onlyFailed: "true",
      startDate: "2026-11-01",
      endDate: "2026-11-02",
    });
    expect(deliveryFiltersOf(params("onlyFailed=yes&startDate="))).toEqual({
      onlyFailed: undefined,
      startDate: undefined,
      endDate: undefined,
    });
  });
});
