import { z } from "zod";
import { accountSchema } from "@/lib/accounts/schemas";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@/lib/auth/password-policy";

export const emailSchema = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email("must be an e-mail address"))
  .transform((email) => email.toLowerCase());

export const newPasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`);

const personName = z.string().trim().min(1, "is required").max(200);

export const setupInput = z
  .object({ accountName: z.string().trim().min(1, "is required").max(200), name: personName, email: emailSchema, password: newPasswordSchema })
  .meta({ id: "SetupInput" });

export const signInInput = z
  .object({
    email: z.string().trim().min(1, "is required").max(254),
    password: z.string().min(1, "is required").max(PASSWORD_MAX_LENGTH),
    totpCode: z
      .string()
      .trim()
      .max(64)
      .optional()
      .meta({ description: "Required once 2FA is on: a current 6-digit code, or one unused recovery code." }),
  })
  .meta({ id: "SignInInput" });

export const totpCodeSchema = z.string().trim().regex(/^\d{6}$/, "must be the 6-digit code from your authenticator app");

export const totpConfirmInput = z.object({ code: totpCodeSchema }).meta({ id: "TotpConfirmInput" });

export const employeeSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    status: z.enum(["invited", "active"]),
    twoFactorEnabled: z.boolean(),
    lastLoginAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Employee" });

export const sessionSchema = z
  .object({ employee: employeeSchema, account: accountSchema, expiresAt: z.iso.datetime() })
  .meta({ id: "Session", description: "The signed-in employee, their platform account and when the session ends at the latest." });

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

export type EmployeeRow = {
  id: string;
  name: string;
  email: string;
  status: string;
  totpEnabledAt: Date | null;
  lastLoginAt: Date | null;
  createdAt: Date;
};

export function presentEmployee(row: EmployeeRow) {
  return { ...row, twoFactorEnabled: row.totpEnabledAt !== null };
}

export const employeeParams = z.object({ id: z.string().regex(/^emp_[a-z0-9]{1,64}$/) });

export const inviteEmployeeInput = z
  .object({ name: personName, email: emailSchema.meta({ description: "Unique across the service; stored lower-cased." }) })
  .meta({ id: "InviteEmployeeInput" });

export const invitedEmployeeSchema = employeeSchema
  .extend({
    invitationUrl: z.url().meta({ description: "The link to send the invitee (`/invitations/accept?token=...`). Shown only in this response." }),
    invitationExpiresAt: z.iso.datetime().meta({ description: "7 days after the invitation." }),
  })
  .meta({ id: "InvitedEmployee" });

export const acceptInvitationInput = z
  .object({
    token: z.string().min(1, "is required").max(200).meta({ description: "The `token` parameter of the invitation link." }),
    password: newPasswordSchema,
  })
  .meta({ id: "AcceptInvitationInput" });
