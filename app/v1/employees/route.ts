import { assertMayGrant, listEmployees } from "@/lib/employees/employees";
import { inviteEmployeeEndpoint, listEmployeesEndpoint } from "@/lib/employees/endpoints";
import { inviteEmployee } from "@/lib/employees/invitations";
import { publicOrigin } from "@/lib/http/public-origin";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: the platform's employees. POST: invite one (the link is shown once).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listEmployeesEndpoint, async () => listEmployees()),
  POST: route(inviteEmployeeEndpoint, async ({ actor, body, request, audit }) => {
    assertMayGrant(actor, body.role);
    const invited = await inviteEmployee({ ...body, origin: publicOrigin(request) });
    // Never the invitation link: it is a credential until it is used.
    audit.details = {
      after: {
        email: invited.email,
        role: invited.role,
        status: invited.status,
        invitationExpiresAt: invited.invitationExpiresAt,
      },
    };
    return invited;
  }),
});
