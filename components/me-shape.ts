import type { z } from "zod";
import type { Permission } from "@/lib/auth/permissions";
import type { sessionSchema } from "@/lib/employees/schemas";

export type SessionBody = z.output<typeof sessionSchema>;

/** The signed-in employee, what their role allows and the platform's settings. */
export type Me = SessionBody["employee"] & {
  /** The platform's own account: the one the dashboard acts for without `?account=`. */
  accountId: string;
  accountName: string;
  permissions: readonly Permission[];
  settings: SessionBody["settings"];
  /** Signed in through single sign-on, which counts as two factors. */
  viaSso: boolean;
};

/** GET /v1/sessions/current's answer, flattened for the dashboard (server and browser alike). */
export const toMe = (body: SessionBody): Me => ({
  ...body.employee,
  accountId: body.account.id,
  accountName: body.account.name,
  permissions: body.permissions,
  settings: body.settings,
  viaSso: body.viaSso,
});
