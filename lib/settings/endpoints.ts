// Endpoint definitions of this resource: each is used by its route file and by the OpenAPI document.
import { endpoint } from "@/lib/http/endpoint";
import { platformSettingsSchema, updateSettingsInput } from "@/lib/settings/schemas";

const tag = "Settings";

export const getSettingsEndpoint = endpoint({
  method: "GET",
  path: "/v1/settings",
  tag,
  summary: "The platform's settings (extension)",
  auth: "any",
  permission: "settings:read",
  platformWide: true,
  response: platformSettingsSchema,
  errors: [],
});

export const updateSettingsEndpoint = endpoint({
  method: "POST",
  path: "/v1/settings",
  tag,
  action: "settings.update",
  summary: "Change the platform's settings (extension)",
  description:
    "`requireTwoFactor`: employees without 2FA may then only sign in, sign out, read /v1/sessions/current and enrol; " +
    "anything else answers 403 `err_two_factor_required`. `fourEyesApproval`: whoever started a review cannot approve " +
    "or reject it. Owners and admins only (no key may hold `settings:write`); needs `Service-Totp-Code`.",
  auth: "any",
  permission: "settings:write",
  platformWide: true,
  totp: true,
  body: updateSettingsInput,
  response: platformSettingsSchema,
  auditDetails: (body: { requireTwoFactor?: boolean; fourEyesApproval?: boolean }) => ({ ...body }),
  errors: [],
});
