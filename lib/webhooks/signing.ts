import { createPrivateKey, sign } from "node:crypto";

// How a delivery is signed (docs/api.md, Verifying a delivery), with the endpoint's own Ed25519 key:
// - X-Webhook-Signature: hex signature of the raw body, as the real service sends. It covers no
//   time, so a receiver cannot tell a replayed request from a fresh one;
// - the Standard Webhooks trio (webhook-id, webhook-timestamp, webhook-signature), whose signature
//   covers "<id>.<timestamp>.<body>", so a receiver can refuse old or replayed requests.

export type DeliveryHeaders = {
  "X-Webhook-Signature": string;
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
};

/** The signature headers for one attempt: `id` the event (delivery) id, `timestamp` Unix seconds of the attempt. */
export function signDelivery({
  id,
  body,
  timestamp,
  privateKeyPem,
}: {
  id: string;
  body: string;
  timestamp: number;
  privateKeyPem: string;
}): DeliveryHeaders {
  const key = createPrivateKey(privateKeyPem);
  const seconds = Math.floor(timestamp);
  // Ed25519 takes no digest (null): it hashes the message itself.
  const bodySignature = sign(null, Buffer.from(body, "utf8"), key);
  const standardSignature = sign(null, Buffer.from(`${id}.${seconds}.${body}`, "utf8"), key);
  return {
    "X-Webhook-Signature": bodySignature.toString("hex"),
    "webhook-id": id,
    "webhook-timestamp": String(seconds),
    "webhook-signature": `v1a,${standardSignature.toString("base64")}`,
  };
}
