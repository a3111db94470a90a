"use client";

import Link from "@/components/ui/link";
import type { UseFormRegisterReturn, FieldError } from "react-hook-form";
import { useMe } from "@/components/me";
import { Field } from "@/components/ui/field";

/**
 * The authenticator-code input for actions that need Service-Totp-Code. Employees without 2FA get
 * a pointer to the enrolment page instead (the API would refuse them with err_otp_required).
 */
export function TotpCodeField({ registration, error }: { registration: UseFormRegisterReturn; error?: FieldError }) {
  const me = useMe();
  if (!me.twoFactorEnabled) {
    return (
      <div className="alert warn" role="alert">
        This action needs a code from your authenticator app.{" "}
        <Link href="/security">Set up two-factor authentication</Link> first.
      </div>
    );
  }
  return (
    <Field
      label="Authenticator code"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      hint="The current 6-digit code from your authenticator app."
      error={error}
      {...registration}
    />
  );
}
