import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["lib/**/*.test.ts", "app/**/*.test.ts"],
    restoreMocks: true,
    environment: "node",
    pool: "forks",
    setupFiles: ["lib/testing/setup.ts"],
    // Sized for a slow machine: tests hash passwords at test cost (lib/testing/setup.ts), and the
    // slowest test (seeding the demo platform) took 14 s on a machine run at a fifth of this one's speed.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
