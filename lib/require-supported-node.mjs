// Imported first by scripts/start.mjs (`npm start`) and server.mjs (`npm run serve`): on a Node.js outside
// package.json's `engines`, prints one line naming the version found and the ones supported, and exits 1 before
// anything that could fail deep inside a dependency (a native module built for another Node, a newer API) loads.
import { unsupportedNodeMessage } from "./node-version.mjs";

const refusal = unsupportedNodeMessage(process.version);
if (refusal) {
  console.error(refusal);
  process.exit(1);
}
