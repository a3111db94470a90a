import { httpRequest } from "./fixtures";
import { expect, tenantOnTwoServers, test, twoServersOnOneDatabase } from "./postgresql-fixture";

// Two server processes on one PostgreSQL database sharing Redis (REDIS_URL; .ci/run starts one on
// 127.0.0.1:6379): a key's limit holds for the key as a whole, not once per process. Outcomes are
// counted, not timed: the requests start at the beginning of a fresh 30 s window and take a few
// seconds, so all of them fall in that one window.

const LIMIT = { requests: 40, perSeconds: 30 };
const SENT = 120;

test.describe.serial("rate limits with two server processes on one PostgreSQL database and Redis", () => {
  test.setTimeout(180_000);
  const { servers: started } = twoServersOnOneDatabase("ratelimit", { REDIS_URL: "redis://127.0.0.1:6379" });

  test("a key sending three times its limit across both processes in one window is admitted its limit (within 10 %)", async () => {
    const [a, b] = started();
    const { key: issuer } = await tenantOnTwoServers([a, b], "Tenant with a rate limit");
    const issued = await httpRequest(`${b.baseURL}/v1/api_keys`, {
      method: "POST",
      body: { expiresAt: new Date(Date.now() + 86_400_000).toISOString(), rateLimit: LIMIT },
      headers: { authorization: `Bearer ${issuer}` },
    });
    expect(issued.status, issued.body).toBe(201);
    const key = (issued.json() as { secret: string }).secret;

    // The start of a fresh window (plus a little), so every request below falls in it.
    const windowMs = LIMIT.perSeconds * 1000;
    await new Promise((resolve) => setTimeout(resolve, windowMs - (Date.now() % windowMs) + 100));
    const statuses: number[] = [];
    for (let batch = 0; batch < SENT / 10; batch += 1) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          httpRequest(`${(index % 2 ? a : b).baseURL}/v1/api_keys`, { headers: { authorization: `Bearer ${key}` } }),
        ),
      );
      for (const answer of answers) {
        statuses.push(answer.status);
        expect(answer.headers["ratelimit-policy"]).toBe(`"key";q=${LIMIT.requests};w=${LIMIT.perSeconds}`);
        if (answer.status === 429) expect(Number(answer.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      }
    }
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    const admitted = statuses.filter((status) => status === 200).length;
    expect(admitted).toBeGreaterThanOrEqual(LIMIT.requests * 0.9);
    expect(admitted).toBeLessThanOrEqual(LIMIT.requests * 1.1);
  });
});
