import { reissueInvitationEndpoint } from "@/lib/employees/endpoints";
import { reissueInvitation } from "@/lib/employees/invitations";
import { withAuditDetails } from "@/lib/audit/trail";
import { publicOrigin } from "@/lib/http/public-origin";
import { methods, route } from "@/lib/http/route";
import { emailedField, sendMail } from "@/lib/mail/mailer";
import { invitationMailFor } from "@/lib/mail/messages";

export const dynamic = "force-dynamic";

type Reissued = Awaited<ReturnType<typeof reissueInvitation>>;

// POST: a new invitation link for an employee still invited (shown once; e-mailed once committed when SMTP is set).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(reissueInvitationEndpoint, async ({ actor, params, request, audit, commit }) => {
    const { before, ...invited } = await withAuditDetails(commit, (done: Reissued) => {
      // Never the link: it is a credential until it is used.
      audit.details = { before: done.before, after: { invitationExpiresAt: done.invitationExpiresAt } };
    })(() => reissueInvitation({ actor, id: params.id, origin: publicOrigin(request) }));
    const sent = await sendMail(invitationMailFor(invited));
    return { ...invited, ...emailedField(sent) };
  }),
});
