"use client";

import { useState } from "react";
import { useMe } from "@/components/me";
import { mustEnrol } from "@/components/nav";
import { PageHeader } from "@/components/ui/page-header";
import { PasskeysSection } from "@/components/passkeys/passkeys-section";
import { ChangePasswordForm } from "./change-password-form";
import { OwnSessions } from "./own-sessions";
import { RecoveryCodes } from "./recovery-codes";
import { TwoFactorSetup } from "./two-factor-setup";

/**
 * The signed-in employee's own security: two-factor authentication and its recovery codes, the
 * password, and the browsers signed in. While the platform requires 2FA and they have none, only
 * enrolment is shown (the API refuses everything else until then).
 */
export function SecurityView() {
  const me = useMe();
  const enrolFirst = mustEnrol(me);
  // Right after enrolment its recovery codes are on screen: offering new ones beside them would confuse.
  const [enrolmentCodesShown, setEnrolmentCodesShown] = useState(false);
  return (
    <div className="stack">
      <PageHeader
        title="Security"
        description="Two-factor authentication, passkeys, your password and where you are signed in."
      />
      {enrolFirst && (
        <div className="alert warn" role="status">
          Your platform requires two-factor authentication. Set it up below to use the rest of the dashboard.
        </div>
      )}
      <TwoFactorSetup onCodesShown={setEnrolmentCodesShown} />
      {!enrolFirst && (
        <>
          {me.twoFactorEnabled && !enrolmentCodesShown && <RecoveryCodes />}
          <PasskeysSection />
          <ChangePasswordForm />
          <OwnSessions />
        </>
      )}
    </div>
  );
}
