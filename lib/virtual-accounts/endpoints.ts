import { defineSandbox, endpointGroup } from "@/lib/contract/endpoint";
import { transactionSchema } from "@/lib/transactions/schemas";
import {
  createVirtualAccountInput,
  listVirtualAccountsQuery,
  payInInput,
  virtualAccountPageSchema,
  virtualAccountParams,
  virtualAccountSchema,
} from "@/lib/virtual-accounts/schemas";

const define = endpointGroup({ tag: "Virtual accounts", auth: "any" });

export const listVirtualAccountsEndpoint = define("GET /v1/virtual_accounts", {
  summary: "List the account's virtual accounts",
  description:
    "Cursor-paginated, newest first by default, active and deactivated alike unless `isActive` narrows it. An " +
    "extension the dashboard uses to pick a virtual account and to deactivate one. A `next` cursor that this API did " +
    "not issue, or one issued for the other `order`, answers 400.",
  permission: "virtual_accounts:read",
  query: listVirtualAccountsQuery,
  response: virtualAccountPageSchema,
});

export const deactivateVirtualAccountEndpoint = define("DELETE /v1/virtual_accounts/{idOrKey}", {
  summary: "Deactivate a virtual account",
  description:
    "The path segment is either the virtual account's `id` (`va_...`) or its `key` (the platform's own reference); " +
    "both name the same account. Once deactivated it refuses pay-ins. Answers the account with `isActive: false`; " +
    "deactivating an inactive account is idempotent (200, `deactivatedAt` unchanged). An id or key the account " +
    "does not own answers 404.",
  permission: "virtual_accounts:write",
  params: virtualAccountParams,
  response: virtualAccountSchema,
  action: "virtual_account.deactivate",
});

export const sandboxCreateVirtualAccountEndpoint = defineSandbox("POST /v1/sandbox/virtual_accounts", {
  summary: "Create a virtual account (sandbox)",
  description:
    "`key` defaults to a generated one such as `VA-7K3QX9P2M4`. A key already used in the account answers 409.",
  body: createVirtualAccountInput,
  response: virtualAccountSchema,
  status: 201,
  action: "sandbox.virtual_account.create",
  errors: [409],
});

export const sandboxPayInEndpoint = defineSandbox("POST /v1/sandbox/virtual_accounts/{idOrKey}/pay_in", {
  summary: "Pay into a virtual account (sandbox)",
  description:
    "The path segment is the virtual account's `id` or `key`. Records a completed `pay_in` transaction. A deactivated " +
    "virtual account refuses with 409; a `currency` other than the account's answers 422.",
  params: virtualAccountParams,
  body: payInInput,
  response: transactionSchema,
  status: 201,
  action: "sandbox.virtual_account.pay_in",
  errors: [409],
});
