import { endpointGroup } from "@/lib/contract/endpoint";
import { platformSettingsSchema, updateSettingsInput, type UpdateSettingsInput } from "@/lib/settings/schemas";

const define = endpointGroup({ tag: "Settings", auth: "any" });

export const getSettingsEndpoint = define("GET /v1/settings", {
  summary: "The platform's settings (extension)",
  permission: "settings:read",
  platformWide: true,
  response: platformSettingsSchema,
});

export const updateSettingsEndpoint = define("POST /v1/settings", {
  action: "settings.update",
  summary: "Change the platform's settings (extension)",
  description:
    "`requireTwoFactor`: employees without 2FA may then only sign in, sign out, read /v1/sessions/current and enrol; " +
    "anything else answers 403 `err_two_factor_required`. `fourEyesApproval`: whoever started a review cannot approve " +
    "or reject it. `slaHours`: the hours a new information request of each kind has before it is due (1..8760; " +
    "null for no SLA; a kind left out keeps its value); requests created before keep their `dueAt`. " +
    "`defaultKeyRateLimit`: `{ requests (1..100000), perSeconds (1..3600) }` for every key without its own limit. " +
    "`retention`: owners only (403 naming `owners` otherwise): `webhookPayloadDays` (1..3650, default 30) after which a " +
    "delivery's `eventData` becomes null, `sessionDays` (1..365, default 30) after which ended sessions are deleted, " +
    "`recordsYears` (1..10, default 5), the legal hold on a closed account's records; the retention sweep applies them " +
    "at start and every hour. " +
    "`sso`: single sign-on through OpenID Connect, owners only (403 naming `owners` otherwise); `clientSecret` is " +
    "write-only, stored encrypted, and an update without it keeps the stored one; `null` turns SSO off. The issuer " +
    "must be https (http only on loopback with `SSO_ALLOW_INSECURE_ISSUER=true`). With `enforced`, password sign-in " +
    "answers 403 `err_sso_required` for all but owners. " +
    "Owners and admins only (no key may hold `settings:write`); needs `Service-Totp-Code`.",
  permission: "settings:write",
  platformWide: true,
  totp: true,
  body: updateSettingsInput,
  response: platformSettingsSchema,
  // The client secret never reaches the audit trail: only whether the update set a new one.
  auditDetails: ({ sso, ...body }: UpdateSettingsInput) => ({
    ...body,
    ...(sso !== undefined && {
      sso: sso && { ...sso, clientSecret: undefined, clientSecretChanged: sso.clientSecret !== undefined },
    }),
  }),
});
