import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRouteTemplates, routeTemplateOf } from "@/lib/observability/route-templates.mjs";

// The access log's and the metrics' `route`: the template of the app's own folders, a fixed set whatever
// paths clients send.
const tree = loadRouteTemplates(path.join(import.meta.dirname, "../../app"));

describe("route templates", () => {
  it.each([
    ["/v1/api_keys", "/v1/api_keys"],
    ["/v1/api_keys/key_123", "/v1/api_keys/{key}"],
    ["/v1/information_requests/bulk", "/v1/information_requests/bulk"],
    ["/v1/information_requests/ir_1", "/v1/information_requests/{id}"],
    [
      "/v1/information_requests/ir_1/documents/doc_1/content",
      "/v1/information_requests/{id}/documents/{docId}/content",
    ],
    ["/accounts", "/accounts"],
    ["/login", "/login"],
    ["/", "/"],
    ["/healthz", "/healthz"],
    ["/icon.svg", "/icon.svg"],
    ["/_next/static/chunks/app-1234.js", "/_next/static"],
  ])("%s is %s", (pathname, template) => {
    expect(routeTemplateOf(tree, pathname)).toBe(template);
  });

  it("a path no route serves is `unmatched`, or the catch-all's template, never the path itself", () => {
    expect(routeTemplateOf(tree, "/wp-admin/setup-config.php")).toBe("unmatched");
    expect(routeTemplateOf(tree, "/accounts/acc_1/anything")).toBe("unmatched");
    expect(routeTemplateOf(tree, "/v1/no/such/thing")).toBe("/v1/{path*}");
  });
});
