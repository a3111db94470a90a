// A child process of lib/db/owner-only.test.ts: one server process's start-up on a fresh data
// directory, reduced to the two generated files. It says "ready" once loaded, and on the line
// "<epoch ms>" from stdin waits for that moment (so all the children start together), then makes
// or reads the encryption key and the setup token and prints both.
import { encryptionKey } from "@/lib/auth/encryption";
import { currentSetupToken } from "@/lib/employees/setup";

process.stdout.write("ready\n");
process.stdin.once("data", (line) => {
  const at = Number(String(line).trim());
  while (performance.timeOrigin + performance.now() < at) {
    // Spin rather than sleep: a timer would scatter the starts by a millisecond or more.
  }
  process.stdout.write(JSON.stringify({ key: encryptionKey().toString("base64"), token: currentSetupToken() }) + "\n");
  process.exit(0);
});
