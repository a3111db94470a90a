import { z } from "zod";
import { passkeyAssertionSchema } from "@/lib/passkeys/schemas";
import type { Employee } from "@/lib/generated/prisma/client";
import { accountSchema } from "@/lib/accounts/schemas";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@/lib/auth/password-policy";
import { COMMON_PASSWORD_COUNT, COMMON_PASSWORD_MESSAGE, isCommonPassword } from "@/lib/auth/common-passwords";
import { PERMISSIONS, ROLES } from "@/lib/auth/permissions";
import { text } from "@/lib/contract/text";
import { sessionSettingsSchema } from "@/lib/settings/schemas";
import { idSchema } from "@/lib/ids/schema";

export const emailSchema = text()
  .trim()
  .max(254)
  .pipe(z.email("must be an e-mail address"))
  .transform((email) => email.toLowerCase());

/**
 * A password an employee chooses (setup, invitation, change): its length, and not one of the most
 * common passwords. The list is on the server only; in the dashboard's forms this checks the length,
 * and the API's 422 names the other reason under the same field.
 */
export const newPasswordSchema = text()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .refine((password) => !isCommonPassword(password), COMMON_PASSWORD_MESSAGE)
  .meta({
    description:
      `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters, and not one of the ${COMMON_PASSWORD_COUNT.toLocaleString("en")} ` +
      "most common passwords (OWASP SecLists, compared case-insensitively): otherwise 422 naming why.",
  });

const personName = text().trim().min(1, "is required").max(200);

export const setupInput = z
  .object({
    setupToken: text().trim().min(1, "is required").max(256).meta({
      description:
        "`SETUP_TOKEN`, or the token the server generated and printed to its log (with a setup link) at start.",
    }),
    accountName: text().trim().min(1, "is required").max(200),
    name: personName,
    email: emailSchema,
    password: newPasswordSchema,
  })
  .meta({ id: "SetupInput" });

export const signInInput = z
  .object({
    email: text().trim().min(1, "is required").max(254),
    password: text().min(1, "is required").max(PASSWORD_MAX_LENGTH),
    totpCode: text()
      .trim()
      .max(64)
      .optional()
      .meta({ description: "Required once 2FA is on: a current 6-digit code, or one unused recovery code." }),
    passkey: passkeyAssertionSchema.optional().meta({
      description:
        "In place of `totpCode`: a passkey's assertion for a challenge of POST /v1/sessions/passkey/options.",
    }),
  })
  .meta({ id: "SignInInput" });

export const totpStartInput = z
  .object({
    password: text()
      .min(1, "is required")
      .max(PASSWORD_MAX_LENGTH)
      .meta({ description: "The employee's current password: a stolen session alone cannot enrol an authenticator." }),
  })
  .meta({ id: "TotpStartInput" });

export const totpCodeSchema = text()
  .trim()
  .regex(/^\d{6}$/, "must be the 6-digit code from your authenticator app");

export const totpConfirmInput = z.object({ code: totpCodeSchema }).meta({ id: "TotpConfirmInput" });

export const employeeStatuses = ["invited", "active", "deactivated"] as const;

export const roleSchema = z
  .enum(ROLES)
  .meta({ description: "owner | admin | developer | compliance | viewer: what the employee may do." });

export const employeeSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    status: z.enum(employeeStatuses),
    role: roleSchema,
    twoFactorEnabled: z.boolean(),
    lastLoginAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    deactivatedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "Employee" });

export const sessionSchema = z
  .object({
    employee: employeeSchema,
    account: accountSchema,
    expiresAt: z.iso.datetime(),
    permissions: z.array(z.enum(PERMISSIONS)).meta({ description: "What the employee's role allows." }),
    settings: sessionSettingsSchema,
    viaSso: z
      .boolean()
      .meta({ description: "Signed in through the platform's single sign-on, which counts as two factors." }),
  })
  .meta({
    id: "Session",
    description:
      "The signed-in employee, their platform account, what they may do and when the session ends at the latest.",
  });

export const totpSetupSchema = z
  .object({
    secret: z.string().meta({ description: "Base32 secret, for typing into an authenticator by hand." }),
    uri: z.string().meta({ description: "otpauth://totp/... URI, usually shown as a QR code." }),
  })
  .meta({ id: "TotpSetup" });

export const totpConfirmedSchema = z
  .object({
    twoFactorEnabled: z.literal(true),
    recoveryCodes: z.array(z.string()).meta({ description: "Shown once. Each signs in once in place of a code." }),
  })
  .meta({ id: "TotpConfirmed" });

export type EmployeeStatus = (typeof employeeStatuses)[number];
export function presentEmployee(row: Employee) {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    status: row.status,
    role: row.role,
    twoFactorEnabled: row.totpEnabledAt !== null,
    lastLoginAt: row.lastLoginAt,
    createdAt: row.createdAt,
    deactivatedAt: row.deactivatedAt,
  };
}

export const employeeParams = z.object({ id: idSchema("emp") });

export const inviteEmployeeInput = z
  .object({
    name: personName,
    email: emailSchema.meta({ description: "Unique across the service; stored lower-cased." }),
    role: roleSchema
      .default("viewer")
      .meta({ description: "Default `viewer`. Any other role needs the `roles` permission, `owner` also `owners`." }),
  })
  .meta({ id: "InviteEmployeeInput" });

export const changeRoleInput = z.object({ role: roleSchema }).meta({ id: "ChangeRoleInput" });

export const changePasswordInput = z
  .object({ currentPassword: text().min(1, "is required").max(PASSWORD_MAX_LENGTH), newPassword: newPasswordSchema })
  .meta({ id: "ChangePasswordInput" });

export const passwordChangedSchema = z
  .object({
    passwordChanged: z.literal(true),
    endedSessions: z.number().int().meta({ description: "Other sessions ended." }),
  })
  .meta({ id: "PasswordChanged" });

export const ownSessionSchema = z
  .object({
    id: z.string(),
    createdAt: z.iso.datetime(),
    lastSeenAt: z.iso.datetime(),
    ip: z.string().nullable(),
    current: z.boolean().meta({ description: "The session this request was made with." }),
  })
  .meta({ id: "OwnSession" });

export const sessionParams = z.object({ id: idSchema("ses") });

export const recoveryCodesSchema = z
  .object({
    recoveryCodes: z.array(z.string()).meta({ description: "Shown once; the previous codes no longer work." }),
  })
  .meta({ id: "RecoveryCodes" });

/** Whether a link was also e-mailed (only when the service has SMTP configured). */
function emailedSchema(what: string, to: string) {
  return z
    .boolean()
    .optional()
    .meta({
      description:
        `Present when the service sends e-mail (SMTP_URL): true when the ${what} was also e-mailed to the ${to}, ` +
        "false when sending failed (the link still works; hand it over yourself).",
    });
}

export const invitedEmployeeSchema = employeeSchema
  .extend({
    invitationUrl: z.url().meta({
      description: "The link to send the invitee (`/invitations/accept?token=...`). Shown only in this response.",
    }),
    invitationExpiresAt: z.iso.datetime().meta({ description: "7 days after the invitation." }),
    emailed: emailedSchema("invitation link", "invitee"),
  })
  .meta({ id: "InvitedEmployee" });

export const passwordResetLinkSchema = employeeSchema
  .extend({
    passwordResetUrl: z.url().meta({
      description:
        "The link to give the employee (`/password-reset?token=...`), valid once. Shown only in this response.",
    }),
    passwordResetExpiresAt: z.iso.datetime().meta({ description: "24 hours after it was created." }),
    emailed: emailedSchema("reset link", "employee"),
  })
  .meta({ id: "PasswordResetLink" });

export const acceptPasswordResetInput = z
  .object({
    token: text().min(1, "is required").max(200).meta({ description: "The `token` parameter of the reset link." }),
    password: newPasswordSchema,
  })
  .meta({ id: "AcceptPasswordResetInput" });

export const passwordResetAcceptedSchema = z
  .object({
    passwordReset: z.literal(true),
    endedSessions: z.number().int().meta({ description: "Sessions of the employee that this ended." }),
    signIn: z.enum(["password", "sso"]).meta({
      description:
        'How the employee signs in now: "sso" where their platform requires single sign-on and they are not an owner.',
    }),
  })
  .meta({ id: "PasswordResetAccepted" });

export const acceptInvitationInput = z
  .object({
    token: text().min(1, "is required").max(200).meta({ description: "The `token` parameter of the invitation link." }),
    password: newPasswordSchema.optional().meta({
      description:
        "The password the employee chooses; required unless their platform requires single sign-on (then ignored: " +
        "no password is set).",
    }),
  })
  .meta({ id: "AcceptInvitationInput" });

export const invitationAcceptedSchema = z
  .union([
    sessionSchema.extend({ signIn: z.literal("password") }),
    z.object({ signIn: z.literal("sso") }).meta({
      id: "InvitationAcceptedSso",
      description:
        "The platform requires single sign-on and the employee is not an owner: activated without a password and " +
        "without a session; they sign in through the identity provider.",
    }),
  ])
  .meta({ id: "InvitationAccepted" });

// Offboarding (docs/api.md, Employees): what an employee created that still works.

export const deactivateEmployeeQuery = z.object({
  revokeCredentials: z
    .enum(["true", "false"], { error: 'must be "true" or "false"' })
    .transform((value) => value === "true")
    .optional()
    .meta({
      description:
        "`true`: revoke every API key and disable every webhook endpoint listed in `createdCredentials`, in the same change as " +
        "the deactivation. Left out or `false`: they are only listed.",
    }),
});

const creatorSchema = z.object({ type: z.enum(["employee", "api_key"]), id: z.string() });

export const createdCredentialIdsSchema = z
  .object({
    apiKeys: z.array(z.string()).meta({ description: "Ids of the keys: not revoked and not expired." }),
    webhookEndpoints: z.array(z.string()).meta({ description: "Ids of the endpoints: not deleted and still enabled." }),
  })
  .meta({
    id: "CreatedCredentialIds",
    description:
      "The still-working credentials the employee created, in every account of the platform, and those created by keys they " +
      "created (at any depth). With `revokeCredentials=true`, the ones this request revoked or disabled.",
  });

export const deactivatedEmployeeSchema = employeeSchema
  .extend({ createdCredentials: createdCredentialIdsSchema })
  .meta({ id: "DeactivatedEmployee" });

export const employeeCredentialsSchema = z
  .object({
    apiKeys: z.array(
      z.object({
        id: z.string(),
        accountId: z
          .string()
          .meta({ description: "The account the key acts for (the platform's own or a sub-account)." }),
        name: z.string().nullable(),
        prefix: z.string().meta({ description: "The secret's first characters, to recognise it." }),
        expiresAt: z.iso.datetime(),
        createdAt: z.iso.datetime(),
        createdBy: creatorSchema.meta({ description: "The employee, or the key of theirs that issued it." }),
      }),
    ),
    webhookEndpoints: z.array(
      z.object({
        id: z.string(),
        accountId: z.string().meta({ description: "The account the endpoint belongs to (its `ownerId`)." }),
        url: z.string(),
        description: z.string().nullable(),
        createdAt: z.iso.datetime(),
        createdBy: creatorSchema.meta({ description: "The employee, or the key of theirs that created it." }),
      }),
    ),
  })
  .meta({ id: "EmployeeCredentials" });
