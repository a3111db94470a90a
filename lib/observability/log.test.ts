import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { logSettings, REDACTED_PATHS } from "@/lib/observability/log.mjs";

// The logger's own guard: a field that carries a secret is redacted whatever call puts it in a line.

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: pino({ redact: { paths: [...REDACTED_PATHS], censor: "[redacted]" } }, stream), lines };
}

describe("the log", () => {
  it("redacts secret-bearing fields at the top and one level down", () => {
    const { logger, lines } = capture();
    logger.info(
      {
        password: "hunter2hunter2",
        body: { totpCode: "123456", secret: "whsec_abc", name: "kept" },
        headers: { authorization: "Bearer pmc_live_abc", cookie: "pmc_session=xyz", "user-agent": "curl" },
      },
      "a careless call",
    );
    const text = lines.join("");
    for (const secret of ["hunter2hunter2", "123456", "whsec_abc", "pmc_live_abc", "pmc_session=xyz"])
      expect(text).not.toContain(secret);
    expect(text).toContain("kept");
    expect(text).toContain("curl");
  });

  it("is JSON in production and pretty otherwise, unless LOG_FORMAT says", () => {
    expect(logSettings({ NODE_ENV: "production" }).format).toBe("json");
    expect(logSettings({}).format).toBe("pretty");
    expect(logSettings({ NODE_ENV: "production", LOG_FORMAT: "pretty" }).format).toBe("pretty");
  });

  it("refuses an unknown format or level, naming the variable", () => {
    expect(() => logSettings({ LOG_FORMAT: "xml" })).toThrow(/^LOG_FORMAT must be json or pretty/);
    expect(() => logSettings({ LOG_LEVEL: "verbose" })).toThrow(/^LOG_LEVEL must be one of/);
  });
});
