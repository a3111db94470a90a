import { expect } from "vitest";

type ErrorClass<T> = new (...args: never[]) => T;

function instanceOf<T>(type: ErrorClass<T>, error: unknown): T {
  expect(error).toBeInstanceOf(type);
  if (!(error instanceof type)) throw error;
  return error;
}

/** What `fn` throws, which must be a `type` (the test fails if it throws anything else, or nothing). */
export function thrownBy<T>(type: ErrorClass<T>, fn: () => unknown): T {
  try {
    fn();
  } catch (error) {
    return instanceOf(type, error);
  }
  throw new Error(`expected a ${type.name}`);
}

/** What `fn` rejects with, which must be a `type` (the test fails if it rejects with anything else, or not at all). */
export async function rejectionOf<T>(type: ErrorClass<T>, fn: () => unknown): Promise<T> {
  try {
    await fn();
  } catch (error) {
    return instanceOf(type, error);
  }
  throw new Error(`expected a ${type.name}`);
}
