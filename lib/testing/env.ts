import { afterEach } from "vitest";
import { resetEnv } from "@/lib/env";

/** After each test of the suite, unsets these variables (a test may have set them) and reads the configuration afresh. */
export function unsetEnvAfterEach(...names: string[]) {
  afterEach(() => {
    for (const name of names) delete process.env[name];
    resetEnv();
  });
}
