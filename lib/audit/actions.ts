import { systemActions } from "@/lib/audit/system-actions";
import type { Endpoint } from "@/lib/contract/endpoint";
import { allEndpoints } from "@/lib/endpoints";

/** The action an endpoint's audit records carry: its own name, else "METHOD /path" (as lib/http/pipeline/settle.ts writes it). */
export const auditActionOf = (definition: Pick<Endpoint, "action" | "method" | "path">) =>
  definition.action ?? `${definition.method} ${definition.path}`;

/**
 * Every action an audit record can carry, sorted and once each: the audit log's action picker, whose
 * choice the API's `action` filter matches exactly. Named actions ("api_key.issue") come before the
 * unnamed "METHOD /path" ones (refused reads), which read as their route.
 */
export function auditActions(endpoints: readonly Endpoint[] = allEndpoints): string[] {
  const all = new Set([...endpoints.map(auditActionOf), ...Object.values(systemActions)]);
  const named = (action: string) => !action.includes(" ");
  return [...all].sort((a, b) => Number(named(b)) - Number(named(a)) || a.localeCompare(b));
}
