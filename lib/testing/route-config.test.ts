import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const v1 = path.resolve(import.meta.dirname, "../../app/v1");
const routeFiles = (readdirSync(v1, { recursive: true }) as string[]).filter(
  (file) => path.basename(file) === "route.ts",
);

describe("every /v1 route file", () => {
  it("is found", () => expect(routeFiles.length).toBeGreaterThan(40));

  // Answers are never prerendered or cached, and Next.js need not wrap the request to watch what the
  // handler reads (under "auto" every header read goes through a tracking proxy: measurable per request).
  it.each(routeFiles)('%s exports dynamic = "force-dynamic"', async (file) => {
    const routeModule = (await import(path.join(v1, file))) as { dynamic?: unknown };
    expect(routeModule.dynamic).toBe("force-dynamic");
  });
});
