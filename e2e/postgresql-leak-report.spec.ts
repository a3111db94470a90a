import { generateKeyPairSync, sign } from "node:crypto";
import { httpRequest, type Server } from "./fixtures";
import { expect, tenantOnTwoServers, test, twoServersOnOneDatabase } from "./postgresql-fixture";

// A leaked key reported in GitHub's secret-scanning format to one server process stops working on
// the other at once: both read the key's row on every request, so no cache outlives the revocation.

const github = generateKeyPairSync("ec", { namedCurve: "P-256" });
const PUBLIC_KEYS = JSON.stringify({
  public_keys: [
    { key_identifier: "e2e-key", key: github.publicKey.export({ type: "spki", format: "pem" }), is_current: true },
  ],
});

test.describe.serial("a leak report with two server processes on one PostgreSQL database", () => {
  test.setTimeout(120_000);
  const { servers: started } = twoServersOnOneDatabase("leak", { SECRET_SCANNING_PUBLIC_KEYS: PUBLIC_KEYS });

  test("the key reported to one server is refused by the other within a second", async () => {
    const [a, b] = started();
    const { key } = await tenantOnTwoServers([a, b], "Tenant with a leak");
    const listKeys = (server: Server) =>
      httpRequest(`${server.baseURL}/v1/api_keys`, { headers: { authorization: `Bearer ${key}` } });
    expect((await listKeys(b)).status).toBe(200);

    const report = [
      { token: key, type: "service_api_key", url: "https://github.com/o/r/blob/1/.env", source: "commit" },
    ];
    const signature = sign("sha256", Buffer.from(JSON.stringify(report)), {
      key: github.privateKey,
      dsaEncoding: "der",
    }).toString("base64");
    const answered = await httpRequest(`${a.baseURL}/v1/secret_scanning/reports`, {
      method: "POST",
      body: report,
      headers: { "github-public-key-identifier": "e2e-key", "github-public-key-signature": signature },
    });
    const answeredAt = Date.now();
    expect(answered.status, answered.body).toBe(200);
    expect(answered.json()).toEqual([{ token_raw: key, token_type: "service_api_key", label: "true_positive" }]);

    const refused = await listKeys(b);
    expect(refused.status, refused.body).toBe(401);
    expect(Date.now() - answeredAt).toBeLessThan(1000);
  });
});
