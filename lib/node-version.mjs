// The Node.js versions the service runs on: package.json's `engines.node`, the one place they are written, read
// here by the start-up guard (lib/require-supported-node.mjs) so the two never disagree. This file stays plain
// ES2020 with nothing newer than Node 16 offers, so an old Node reaches the guard instead of failing on syntax.
import { readFileSync } from "node:fs";
import semver from "semver";

/** package.json's `engines.node`, e.g. ">=22.12". */
export const SUPPORTED_NODE = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).engines
  .node;

/**
 * Null when `version` (as `process.version` gives it, "v24.21.0") satisfies `range`; otherwise the one line that
 * says what was found and what is supported. Pre-releases of a supported major count as supported.
 * @param {string} version
 * @param {string} [range]
 * @returns {string | null}
 */
export function unsupportedNodeMessage(version, range = SUPPORTED_NODE) {
  if (semver.valid(version) && semver.satisfies(version, range, { includePrerelease: true })) return null;
  return (
    `This service needs Node.js ${range}, and this is Node.js ${version}: ` +
    "install a supported version (check with `node --version`) and start it again."
  );
}
