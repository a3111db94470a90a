"use client";

import { CopyButton } from "@/components/ui/format";
import styles from "./webhooks.module.css";

/** An endpoint's Ed25519 public key (PEM), for the receiver to verify signatures with; copyable. */
export function PublicKey({ pem }: { pem: string }) {
  return (
    <div className={styles.publicKey} role="group" aria-label="Public key">
      <pre data-testid="webhook-public-key">{pem.trim()}</pre>
      <CopyButton text={pem} label="Copy public key" />
    </div>
  );
}
