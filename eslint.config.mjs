// ESLint flat config: Next.js's recommended rules (core web vitals, React, hooks), typescript-eslint with type
// information for the promise rules, and eslint-config-prettier last so formatting is Prettier's alone.
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";
import tseslint from "typescript-eslint";

export default defineConfig([
  globalIgnores([
    "lib/generated/**",
    ".next/**",
    ".next-*/**",
    "bench/bare-app/**",
    "playwright-report/**",
    "test-results*/**",
    "node_modules/**",
    "next-env.d.ts",
  ]),
  ...nextVitals,
  ...nextTypescript,
  {
    files: ["**/*.ts", "**/*.tsx", "**/*.mts", "**/*.cts"],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        // vitest.config.mts sits outside tsconfig.json's include list; type it with the default project.
        projectService: { allowDefaultProject: ["vitest.config.mts"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      // A leading underscore is this codebase's way of naming what is deliberately left unused (rest-destructuring a secret away).
      "@typescript-eslint/no-unused-vars": [
        "warn",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Playwright fixtures hand their value on through a callback named `use`, which is not React's hook.
    files: ["e2e/**/*.ts"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    // Signing out and a lost session load /login afresh on purpose: nothing the employee saw stays in the tab's memory.
    files: ["components/**/*.tsx"],
    rules: { "@next/next/no-location-assign-relative-destination": "off" },
  },
  {
    // next.config.js is CommonJS, loaded by Next itself.
    files: ["next.config.js"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // Long functions hide stages: every function outside the tests stays under 60 lines, React components and the
    // server's own scripts included (a long component splits into a hook and the parts it renders). Tests read as
    // one unit per file and are left out.
    files: ["**/*.{ts,tsx,mts,mjs,js}"],
    ignores: ["**/*.test.ts", "**/*.spec.ts", "e2e/**", "**/test/**", "**/tests/**"],
    rules: {
      "max-lines-per-function": ["error", { max: 60, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Domain code throws DomainError (lib/errors.ts) and reads the contract's schemas from lib/contract; only the
    // request runtime (lib/http), tests and their helpers, and app/ go through lib/http. lib/layers.test.ts checks
    // the same, dynamic imports included.
    files: ["lib/**/*.ts", "lib/**/*.tsx", "lib/**/*.mts", "lib/**/*.mjs"],
    ignores: ["lib/http/**", "lib/testing/**", "lib/generated/**", "**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/lib/http", "@/lib/http/*", "../http", "../http/*", "../../http/*"],
              message: "Domain code throws DomainError (lib/errors.ts) and imports contract pieces from lib/contract.",
            },
          ],
        },
      ],
    },
  },
  prettier,
]);
