import { createSubAccount } from "@/lib/accounts/accounts";
import { createSandboxAccountEndpoint } from "@/lib/accounts/endpoints";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST: an account under the caller's account (sandbox).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: route(createSandboxAccountEndpoint, async ({ scope, body }) =>
    createSubAccount({ name: body.name, parentId: scope.accountId }),
  ),
});
