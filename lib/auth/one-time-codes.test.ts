import { beforeEach, describe, expect, it, vi } from "vitest";
import { POST as signIn } from "@/app/v1/sessions/route";
import { POST as confirmEnrolment } from "@/app/v1/employees/totp/confirm/route";
import { POST as startEnrolment } from "@/app/v1/employees/totp/route";
import { POST as regenerateRecoveryCodes } from "@/app/v1/employees/totp/recovery_codes/route";
import { matchTotpStep } from "@/lib/auth/totp";
import { oneTimeCodeRule } from "@/lib/auth/throttle";
import { PASSWORD, signedInEmployee } from "@/lib/testing/factories";
import { Authenticator, call, type Answer } from "@/lib/testing/http";

// Every TOTP code the service checks goes through matchTotpStep: counting its calls measures what was
// checked, rather than inferring it from the answers.
vi.mock("@/lib/auth/totp", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/auth/totp")>();
  return { ...actual, matchTotpStep: vi.fn(actual.matchTotpStep) };
});
const checked = () => vi.mocked(matchTotpStep).mock.calls.length;

beforeEach(() => {
  vi.mocked(matchTotpStep).mockClear();
});

const LIMIT = oneTimeCodeRule.limit;

function tally(answers: Array<Answer<{ error_code?: unknown } | null>>) {
  const counts: Record<string, number> = {};
  for (const { status, body } of answers) {
    const key = `${status} ${String(body?.error_code ?? "ok")}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** Every 429 says when to come back: within the one-time-code window, never beyond it. */
function expectHonestRetryAfter(answers: Array<Answer<unknown>>) {
  for (const answer of answers.filter(({ status }) => status === 429)) {
    const seconds = Number(answer.headers.get("retry-after"));
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(oneTimeCodeRule.windowMs / 1000);
  }
}

describe("one-time codes are counted before they are checked", () => {
  it("150 wrong Service-Totp-Code values at once from one session: at most 5 are checked, the rest answer 429", async () => {
    const { session, authenticator } = await signedInEmployee({ totp: true });
    const wrong = authenticator!.wrongCode();
    vi.mocked(matchTotpStep).mockClear();
    const answers = await Promise.all(
      Array.from({ length: 150 }, () => call(regenerateRecoveryCodes, { method: "POST", session, totp: wrong })),
    );
    expect(checked()).toBeGreaterThan(0);
    expect(checked()).toBeLessThanOrEqual(LIMIT);
    expect(tally(answers)).toEqual({ "400 err_otp_invalid": checked(), "429 err_rate_limited": 150 - checked() });
    expectHonestRetryAfter(answers);
    // Blocked means blocked: the right code is not checked either until the window ends.
    const right = await call(regenerateRecoveryCodes, { method: "POST", session, totp: authenticator!.nextCode() });
    expect(right.status).toBe(429);
    expect(checked()).toBeLessThanOrEqual(LIMIT);
  });

  it("a right code gives its attempt back, and a replayed one is refused without counting", async () => {
    const { session, authenticator } = await signedInEmployee({ totp: true });
    for (let i = 0; i < LIMIT + 2; i++) {
      const code = authenticator!.nextCode();
      expect((await call(regenerateRecoveryCodes, { method: "POST", session, totp: code })).status).toBe(200);
      expect((await call(regenerateRecoveryCodes, { method: "POST", session, totp: code })).body?.error_code).toBe(
        "err_otp_invalid",
      );
    }
    // None of the above counted: the full allowance of wrong codes is still there.
    for (const code of authenticator!.wrongCodes(LIMIT)) {
      expect((await call(regenerateRecoveryCodes, { method: "POST", session, totp: code })).status).toBe(400);
    }
    expect(
      (await call(regenerateRecoveryCodes, { method: "POST", session, totp: authenticator!.wrongCode() })).status,
    ).toBe(429);
  });

  it("sign-in's code step: 30 wrong codes at once (right password, each from its own client), at most 5 checked", async () => {
    const { email, authenticator } = await signedInEmployee({ totp: true });
    const wrong = authenticator!.wrongCode();
    vi.mocked(matchTotpStep).mockClear();
    // One client each, so the sign-in's own password counters never stop them before the code step.
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call(signIn, {
          method: "POST",
          ip: `198.51.100.${i + 1}`,
          body: { email, password: PASSWORD, totpCode: wrong },
        }),
      ),
    );
    expect(checked()).toBeGreaterThan(0);
    expect(checked()).toBeLessThanOrEqual(LIMIT);
    expect(tally(answers)).toEqual({ "400 err_otp_invalid": checked(), "429 err_rate_limited": 30 - checked() });
    expectHonestRetryAfter(answers);
  });

  it("sign-in's recovery-code step shares the counter: 30 wrong recovery codes at once, at most 5 refused as wrong", async () => {
    const { email, recoveryCodes } = await signedInEmployee({ totp: true });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call(signIn, {
          method: "POST",
          ip: `198.51.100.${i + 1}`,
          body: { email, password: PASSWORD, totpCode: `aaaa-bbbb-cccc-${String(i).padStart(4, "2")}` },
        }),
      ),
    );
    expect(tally(answers)).toEqual({ "400 err_otp_invalid": LIMIT, "429 err_rate_limited": 30 - LIMIT });
    expectHonestRetryAfter(answers);
    // Blocked for recovery codes too, even a real one: it was not spent.
    const real = await call(signIn, {
      method: "POST",
      body: { email, password: PASSWORD, totpCode: recoveryCodes[0] },
    });
    expect(real.status).toBe(429);
  });

  it("enrolment confirm: 150 wrong codes at once, at most 5 checked, the rest 429", async () => {
    const { session } = await signedInEmployee();
    const started = await call(startEnrolment, { method: "POST", session, body: { password: PASSWORD } });
    expect(started.status).toBe(200);
    const authenticator = new Authenticator(started.body.secret);
    const wrong = authenticator.wrongCode();
    vi.mocked(matchTotpStep).mockClear();
    const answers = await Promise.all(
      Array.from({ length: 150 }, () => call(confirmEnrolment, { method: "POST", session, body: { code: wrong } })),
    );
    expect(checked()).toBeGreaterThan(0);
    expect(checked()).toBeLessThanOrEqual(LIMIT);
    expect(tally(answers)).toEqual({ "400 err_otp_invalid": checked(), "429 err_rate_limited": 150 - checked() });
    expectHonestRetryAfter(answers);
  });
});
