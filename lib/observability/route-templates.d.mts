// Types for route-templates.mjs.
export type RouteTree = { readonly __routeTree: unique symbol };
export declare function loadRouteTemplates(appDir: string): RouteTree;
export declare function routeTemplateOf(tree: RouteTree, pathname: string): string;
