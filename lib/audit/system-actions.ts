/**
 * Audit actions written by the service itself rather than by a request to an endpoint (whose
 * actions the endpoint definitions name): the audit log's action picker lists these too.
 */
export const systemActions = {
  /** The webhook worker disabled an endpoint that had no successful delivery for three days. */
  webhookAutoDisable: "webhook_endpoint.auto_disable",
  /** A validly signed passkey assertion whose signature counter did not go forward (a cloned authenticator?): refused. */
  passkeyCounterRegressed: "employee.passkey_counter_regressed",
} as const;
