import { z } from "zod";
import { text } from "@/lib/contract/text";

// The platform's single sign-on settings (docs/api.md and docs/security.md, Single sign-on).
// Client-safe: the settings form validates with the same schema the API does.

const domain = text()
  .trim()
  .toLowerCase()
  .regex(
    /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    "must be a domain such as example.com",
  );

export const ssoSettingsSchema = z
  .object({
    issuer: z
      .string()
      .meta({ description: "The OpenID provider's issuer URL (discovery at /.well-known/openid-configuration)." }),
    clientId: z.string(),
    clientSecretSet: z
      .boolean()
      .meta({ description: "A client secret is stored (encrypted). The secret itself is never shown again." }),
    allowedDomains: z
      .array(z.string())
      .meta({ description: "The asserted e-mail's domain must be one of these; empty: any domain." }),
    enforced: z.boolean().meta({ description: "Password sign-in is refused (err_sso_required) for all but owners." }),
  })
  .nullable()
  .meta({ id: "SsoSettings", description: "Single sign-on through OpenID Connect; null when not set up." });

export const ssoInput = z
  .object({
    issuer: text()
      .trim()
      .max(500, "must be at most 500 characters")
      .refine(
        (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
        "must be the issuer's URL, e.g. https://login.example.com",
      ),
    clientId: text().trim().min(1, "is required").max(255, "must be at most 255 characters"),
    clientSecret: text()
      .min(1, "is required")
      .max(1000, "must be at most 1000 characters")
      .optional()
      .meta({ description: "Write-only. Left out: the stored secret is kept (required the first time)." }),
    allowedDomains: z.array(domain).max(50, "at most 50 domains").default([]),
    enforced: z.boolean().default(false),
  })
  .nullable()
  .meta({ id: "SsoInput", description: "Owners only. null turns single sign-on off." });

export type SsoInput = z.output<typeof ssoInput>;
export type SsoSettings = z.output<typeof ssoSettingsSchema>;

export const ssoTestInput = z.object({ issuer: ssoInput.unwrap().shape.issuer }).meta({ id: "SsoTestInput" });

export const ssoTestResultSchema = z
  .object({
    issuer: z.string(),
    authorizationEndpoint: z.string(),
    tokenEndpoint: z.string(),
    jwksUri: z.string(),
  })
  .meta({ id: "SsoTestResult", description: "What the issuer's discovery document says." });

export const ssoStartQuery = z.object({
  email: text().max(320).optional().meta({ description: "The employee's e-mail (sent to the issuer as login_hint)." }),
  next: text().max(2000).optional().meta({ description: "The dashboard path to return to after sign-in." }),
});

export const ssoCallbackQuery = z.object({
  code: text().max(4000).optional(),
  state: text().max(200).optional(),
  iss: text().max(500).optional(),
  error: text().max(200).optional(),
  error_description: text().max(1000).optional(),
  session_state: text().max(500).optional(),
});
