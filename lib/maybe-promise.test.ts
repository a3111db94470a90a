import { describe, expect, it } from "vitest";
import { andThen } from "@/lib/maybe-promise";
import { requestContext, withinContext } from "@/lib/request-context";

describe("andThen()", () => {
  it("answers at once, without a promise, when the value is there", () => {
    expect(andThen(2, (value) => value * 3)).toBe(6);
  });

  it("answers with a promise when the value is promised", async () => {
    const answer = andThen(Promise.resolve(2), (value) => value * 3);
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toBe(6);
  });

  it("asks a lazy thenable (a Prisma query, which runs only when asked) in the caller's context", async () => {
    let askedIn: unknown = "never asked";
    const lazy = {
      then(resolve: (value: number) => void) {
        askedIn = requestContext()?.reads;
        resolve(2);
      },
    } as unknown as Promise<number>;
    const reads = {};
    const answer = withinContext({ reads }, () => andThen(lazy, (value) => value * 3));
    expect(await answer).toBe(6);
    expect(askedIn).toBe(reads);
  });

  it("lets a throw in `next` escape at once when the value was there", () => {
    expect(() =>
      andThen(1, () => {
        throw new Error("refused");
      }),
    ).toThrow("refused");
  });
});
