import { hash, randomBytes } from "node:crypto";

/** SHA-256 hex. Fine for high-entropy random tokens (keys, sessions, recovery codes); never for passwords. */
export function sha256(value: string): string {
  return hash("sha256", value, "hex");
}

/** A random token of `bytes` bytes, base64url. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}
