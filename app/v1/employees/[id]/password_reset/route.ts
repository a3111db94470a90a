import { createPasswordResetEndpoint } from "@/lib/employees/endpoints";
import { createPasswordReset } from "@/lib/employees/password-reset";
import { withAuditDetails } from "@/lib/audit/trail";
import { publicOrigin } from "@/lib/http/public-origin";
import { methods, route } from "@/lib/http/route";
import { emailedField, sendMail } from "@/lib/mail/mailer";
import { passwordResetMail } from "@/lib/mail/messages";

export const dynamic = "force-dynamic";

// POST: a one-time password-reset link for an active employee (shown once; e-mailed once committed when SMTP is set).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(createPasswordResetEndpoint, async ({ actor, params, request, audit, commit }) => {
    const { employee } = await createPasswordReset({
      actor,
      id: params.id,
      origin: publicOrigin(request),
      // Never the link: it is a credential until it is used.
      commit: withAuditDetails(commit, (done: { before: Record<string, unknown>; expiresAt: Date }) => {
        audit.details = { before: done.before, after: { passwordResetExpiresAt: done.expiresAt } };
      }),
    });
    const sent = await sendMail(
      passwordResetMail({
        to: employee.email,
        name: employee.name,
        url: employee.passwordResetUrl,
        expiresAt: employee.passwordResetExpiresAt,
      }),
    );
    return { ...employee, ...emailedField(sent) };
  }),
});
