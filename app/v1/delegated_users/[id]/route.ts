import { findDelegatedUser } from "@/lib/delegated-users/delegated-users";
import { getDelegatedUserEndpoint } from "@/lib/delegated-users/endpoints";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: one delegated user of the account.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(getDelegatedUserEndpoint, async ({ params }) => findDelegatedUser({ id: params.id })),
});
