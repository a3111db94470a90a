import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeyFor, signedInEmployee } from "@/lib/testing/factories";
import { call } from "@/lib/testing/http";
import { GET } from "./route";
import { DELETE } from "./[key]/route";

/** Another instance of the service (lib/testing/instance-child.ts) on this file's database, with memory of its own. */
function startInstance() {
  const root = path.resolve(import.meta.dirname, "../../..");
  const child = spawn(path.join(root, "node_modules", ".bin", "tsx"), ["lib/testing/instance-child.ts"], {
    cwd: root,
    env: process.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let errors = "";
  child.stderr.on("data", (chunk: Buffer) => (errors += chunk));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const nextLine = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`the other instance stopped: ${errors}`);
    return value as string;
  };
  return {
    ready: nextLine().then((line) => expect(line).toBe("ready")),
    async send(op: "use" | "revoke", key: { id: string; secret: string }) {
      child.stdin.write(`${JSON.stringify({ op, secret: key.secret, keyId: key.id })}\n`);
      return (JSON.parse(await nextLine()) as { status: number }).status;
    },
    stop: () => child.kill(),
  };
}

describe("a key revoked by one instance", () => {
  let other: ReturnType<typeof startInstance>;
  beforeAll(async () => {
    other = startInstance();
    await other.ready;
  });
  afterAll(() => other.stop());

  it("is refused by another instance on its very next request, however warm that instance's memory of it", async () => {
    const { account } = await signedInEmployee();
    const key = await apiKeyFor(account.id);
    // This process has read the key (and on SQLite keeps its row) a moment before the other revokes it.
    for (let i = 0; i < 3; i += 1) expect((await call(GET, { apiKey: key.secret })).status).toBe(200);
    expect(await other.send("use", key)).toBe(200);
    expect(await other.send("revoke", key)).toBe(200);
    expect((await call(GET, { apiKey: key.secret })).status).toBe(401);
  });

  it("and the other way round: revoked here, refused there next", async () => {
    const { account } = await signedInEmployee();
    const key = await apiKeyFor(account.id);
    for (let i = 0; i < 3; i += 1) expect(await other.send("use", key)).toBe(200);
    expect((await call(GET, { apiKey: key.secret })).status).toBe(200);
    const revoked = await call(DELETE, { method: "DELETE", apiKey: key.secret, params: { key: key.id } });
    expect(revoked.status).toBe(200);
    expect(await other.send("use", key)).toBe(401);
  });
});
