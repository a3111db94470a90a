import Database from "better-sqlite3";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { OWNER, startServer } from "./fixtures";

// The test-cost password hashing the specs use can never reach a real start: the production server
// refuses it outside the test runner and names the setting, and says so when it does take it.

/** The password hash the server stored for the owner it was set up with. */
async function ownerPasswordHash(baseURL: string, dataDir: string): Promise<string> {
  const setup = await fetch(`${baseURL}/v1/setup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(OWNER),
  });
  expect(setup.status).toBe(201);
  const db = new Database(path.join(dataDir, "app.db"), { readonly: true });
  try {
    return (
      db.prepare("SELECT passwordHash FROM Employee WHERE email = ?").get(OWNER.email) as { passwordHash: string }
    ).passwordHash;
  } finally {
    db.close();
  }
}

test("outside the test runner, the production server refuses PASSWORD_HASH_COST=test, names it and stops", async () => {
  // TEST_WORKER_INDEX (set by Playwright, inherited by the servers tests start) emptied: a plain start.
  const start = startServer({ PASSWORD_HASH_COST: "test", TEST_WORKER_INDEX: "" });
  await expect(start).rejects.toThrow(/server exited with 1/);
  await expect(start).rejects.toThrow(/PASSWORD_HASH_COST: test is refused: it is only for the test suite/);
});

test("under the test runner it takes the test cost, says so, and stores cheap hashes", async () => {
  const server = await startServer({ PASSWORD_HASH_COST: "test" });
  try {
    expect(server.output()).toContain("Passwords are hashed at test cost (PASSWORD_HASH_COST=test, under playwright)");
    expect(await ownerPasswordHash(server.baseURL, server.dataDir)).toMatch(/^\$argon2id\$v=19\$m=256,t=1,p=1\$/);
  } finally {
    await server.stop();
  }
});

test("without the setting it hashes at the real cost and says nothing of tests", async () => {
  const server = await startServer({ PASSWORD_HASH_COST: "" });
  try {
    expect(server.output()).not.toContain("test cost");
    expect(await ownerPasswordHash(server.baseURL, server.dataDir)).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  } finally {
    await server.stop();
  }
});

test("a plain start keeps the sandbox off unless SANDBOX=on", async () => {
  // No test runner marker, no test-cost hashing, SANDBOX unset: what an operator's first start is.
  const server = await startServer({ TEST_WORKER_INDEX: "", PASSWORD_HASH_COST: "", SANDBOX: "" });
  try {
    const response = await fetch(`${server.baseURL}/v1/sandbox/platforms`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error_code: "err_not_found", http_code: 404 });
  } finally {
    await server.stop();
  }
});

test("the start-up log names an address a newcomer can open: localhost for a wildcard bind, APP_ORIGIN beside it", async () => {
  const server = await startServer({ HOST: "::" });
  try {
    expect(server.output()).toMatch(/Listening on http:\/\/localhost:\d+\n/);
    expect(server.output()).not.toContain("[::]");
  } finally {
    await server.stop();
  }
  const behindProxy = await startServer({ HOST: "0.0.0.0", APP_ORIGIN: "https://compliance.example.com" });
  try {
    expect(behindProxy.output()).toMatch(
      /Listening on http:\/\/localhost:\d+, served as https:\/\/compliance\.example\.com\n/,
    );
  } finally {
    await behindProxy.stop();
  }
});
