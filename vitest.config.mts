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
    // Password hashing is deliberately slow (scrypt at OWASP cost, ~0.3 s here).
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
