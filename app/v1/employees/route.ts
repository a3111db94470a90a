import { assertMayGrant, listEmployees } from "@/lib/employees/employees";
import { inviteEmployeeEndpoint, listEmployeesEndpoint } from "@/lib/employees/endpoints";
import { inviteEmployee } from "@/lib/employees/invitations";
import { withAuditDetails } from "@/lib/audit/trail";
import { publicOrigin } from "@/lib/http/public-origin";
import { methods, route } from "@/lib/http/route";
import { emailedField, sendMail } from "@/lib/mail/mailer";
import { invitationMailFor } from "@/lib/mail/messages";

export const dynamic = "force-dynamic";

type Invited = Awaited<ReturnType<typeof inviteEmployee>>;

// GET: the platform's employees. POST: invite one (the link is shown once, and e-mailed once committed when SMTP is set).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listEmployeesEndpoint, async () => listEmployees()),
  POST: route(inviteEmployeeEndpoint, async ({ actor, body, request, audit, commit }) => {
    assertMayGrant(actor, body.role);
    const invited = await withAuditDetails(commit, (done: Invited) => {
      audit.targetId = done.id;
      // Never the invitation link: it is a credential until it is used.
      audit.details = {
        after: {
          email: done.email,
          role: done.role,
          status: done.status,
          invitationExpiresAt: done.invitationExpiresAt,
        },
      };
    })(() => inviteEmployee({ ...body, origin: publicOrigin(request) }));
    const sent = await sendMail(invitationMailFor(invited));
    return { ...invited, ...emailedField(sent) };
  }),
});
