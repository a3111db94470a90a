import { createDelegatedUser, listDelegatedUsers } from "@/lib/delegated-users/delegated-users";
import { createDelegatedUserEndpoint, listDelegatedUsersEndpoint } from "@/lib/delegated-users/endpoints";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: a page of the account's delegated users. POST: create one.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listDelegatedUsersEndpoint, async ({ query }) => listDelegatedUsers(query)),
  POST: route(createDelegatedUserEndpoint, async ({ body }) => createDelegatedUser(body)),
});
