// A bare Next.js app for `npm run bench`: the framework with nothing of the service's on top. Built
// with webpack (`next build --webpack`): Turbopack would take the service's directory as its root
// (where the lockfile is) and compile the service's instrumentation.ts into it.
module.exports = { poweredByHeader: false };
