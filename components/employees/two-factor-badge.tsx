/** Whether an employee signs in (and changes keys) with an authenticator code. */
export function TwoFactorBadge({ enabled }: { enabled: boolean }) {
  return <span className={`badge ${enabled ? "ok" : "warn"}`}>{enabled ? "On" : "Off"}</span>;
}
