"use client";

import { toNestErrors } from "@hookform/resolvers";
import { useQueryClient } from "@tanstack/react-query";
import Link from "@/components/ui/link";
import { useRef, useState } from "react";
import type { FieldErrors, Resolver, UseFormRegister } from "react-hook-form";
import { CountrySelect } from "@/components/kyc/country-select";
import { useApplicantProfile, type ApplicantProfile } from "@/components/kyc/hooks";
import { useCan } from "@/components/me";
import { useApiForm } from "@/components/use-api-form";
import { DataState, ErrorMessage } from "@/components/ui/data-state";
import { Field } from "@/components/ui/field";
import { DateTime } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { ReadOnlyNote } from "@/components/ui/read-only-note";
import { SubmitButton } from "@/components/ui/submit-button";
import { api } from "@/lib/client/api";
import { queryKey } from "@/lib/client/query-keys";
import { currentAccountId } from "@/lib/client/current-account";
import { getProfileEndpoint, updateProfileEndpoint } from "@/lib/kyc/endpoints";
import { updateProfileInput, type UpdateProfileInput } from "@/lib/kyc/schemas";

const PERSON_FIELDS = ["firstName", "lastName", "dateOfBirth", "nationality", "email", "phone"] as const;
const ADDRESS_FIELDS = ["line1", "line2", "city", "postalCode", "country"] as const;

type Values = Record<(typeof PERSON_FIELDS)[number], string> & {
  address: Record<(typeof ADDRESS_FIELDS)[number], string>;
};

/** The profile as the form's text inputs hold it: unset fields are empty strings. */
function valuesOf(profile: ApplicantProfile): Values {
  return {
    ...(Object.fromEntries(PERSON_FIELDS.map((name) => [name, profile[name] ?? ""])) as Record<
      (typeof PERSON_FIELDS)[number],
      string
    >),
    address: Object.fromEntries(
      ADDRESS_FIELDS.map((name) => [name, profile.address?.[name] ?? ""]),
    ) as Values["address"],
  };
}

/**
 * The update to send: only the fields that differ from the stored profile (the API's update is
 * partial). The address is one field there, replaced whole, so any change to it sends all of it.
 */
function changesOf(values: Values, stored: Values): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const name of PERSON_FIELDS) if (values[name] !== stored[name]) changes[name] = values[name];
  if (ADDRESS_FIELDS.some((name) => values.address[name] !== stored.address[name])) {
    const { line2, ...rest } = values.address;
    changes.address = { ...rest, ...(line2.trim() ? { line2 } : {}) };
  }
  return changes;
}

export function ApplicantProfileForm() {
  const query = useApplicantProfile();
  return (
    <div className="stack">
      <PageHeader
        title="Applicant profile"
        description="The KYC applicant of your account. Only the fields you change are sent."
        actions={<Link href="/kyc">KYC submissions</Link>}
      />
      <DataState query={query}>{query.data && <ProfileForm profile={query.data} />}</DataState>
    </div>
  );
}

type Notice = { tone: "success" | "info"; text: string };
type ProfileErrors = FieldErrors<Values>;

function ProfileForm({ profile }: { profile: ApplicantProfile }) {
  const readOnly = !useCan()("kyc:write");
  const { form, onSubmit, formError, updatedAt, notice, setNotice, discard } = useProfileForm(profile);
  const { errors, isSubmitting } = form.formState;
  return (
    <form
      className="card stack"
      onSubmit={(event) => {
        setNotice(null);
        onSubmit(event);
      }}
      noValidate
      aria-label="Applicant profile"
    >
      <ProfileStatus updatedAt={updatedAt} notice={notice} formError={formError} readOnly={readOnly} />
      <fieldset className="plain" disabled={readOnly}>
        <ApplicantFields register={form.register} errors={errors} />
        <AddressFields register={form.register} errors={errors} />
      </fieldset>
      {!readOnly && (
        <div className="row">
          <SubmitButton pending={isSubmitting} pendingLabel="Saving…">
            Save profile
          </SubmitButton>
          <button type="button" onClick={discard} disabled={isSubmitting}>
            Discard changes
          </button>
        </div>
      )}
    </form>
  );
}

/** The form's state and its save: only the changed fields are sent, and a save becomes the new stored profile. */
function useProfileForm(profile: ApplicantProfile) {
  const queryClient = useQueryClient();
  const stored = useRef(valuesOf(profile));
  const [updatedAt, setUpdatedAt] = useState(profile.updatedAt);
  const [notice, setNotice] = useState<Notice | null>(null);
  // The API's own schema validates what would be sent, so the messages under the fields are the API's.
  const resolver: Resolver<Values, unknown, UpdateProfileInput> = async (values, _context, options) => {
    const changes = changesOf(values, stored.current);
    if (Object.keys(changes).length === 0) return { values: {}, errors: {} };
    const parsed = updateProfileInput.safeParse(changes);
    if (parsed.success) return { values: parsed.data, errors: {} };
    // The first problem of each field, as zodResolver reports it.
    const problems = Object.fromEntries(
      parsed.error.issues
        .toReversed()
        .map((issue) => [issue.path.join("."), { type: issue.code, message: issue.message }]),
    );
    return { values: {}, errors: toNestErrors<Values>(problems, options) };
  };
  // The stored profile is read once, as the form's first values; later saves move it without a render of their own.
  // eslint-disable-next-line react-hooks/refs
  const { form, onSubmit, formError, setFormError } = useApiForm<Values, ApplicantProfile, UpdateProfileInput>({
    resolver,
    // eslint-disable-next-line react-hooks/refs
    defaultValues: stored.current,
    fields: [...PERSON_FIELDS, "address"],
    beforeSubmit: (changes) => {
      if (Object.keys(changes).length > 0) return true;
      setNotice({ tone: "info", text: "Nothing to save: no field differs from the stored profile." });
      return false;
    },
    submit: (changes) => api(updateProfileEndpoint, { body: changes }),
    onDone: (saved, changes) => {
      const fields = Object.keys(changes).length;
      queryClient.setQueryData(queryKey(getProfileEndpoint, { accountId: currentAccountId() }), saved);
      stored.current = valuesOf(saved);
      form.reset(stored.current);
      setUpdatedAt(saved.updatedAt);
      setNotice({ tone: "success", text: `Profile saved (${fields === 1 ? "1 field" : `${fields} fields`} updated).` });
    },
  });
  const discard = () => {
    form.reset(stored.current);
    setNotice(null);
    setFormError(null);
  };
  return { form, onSubmit, formError, updatedAt, notice, setNotice, discard };
}

/** Above the fields: when the profile was last saved, what the last save did, and why the form may be locked. */
function ProfileStatus({
  updatedAt,
  notice,
  formError,
  readOnly,
}: {
  updatedAt: ApplicantProfile["updatedAt"];
  notice: Notice | null;
  formError: string | null;
  readOnly: boolean;
}) {
  return (
    <>
      <p className="muted" style={{ margin: 0 }}>
        {updatedAt ? (
          <>
            Last updated <DateTime value={updatedAt} />.
          </>
        ) : (
          "Not filled in yet."
        )}
      </p>
      {notice && (
        <div className={`alert ${notice.tone === "success" ? "success" : ""}`} role="status">
          {notice.text}
        </div>
      )}
      <ErrorMessage error={formError} />
      {readOnly && (
        <ReadOnlyNote>
          Your role can read the applicant profile; compliance staff, admins and owners change it.
        </ReadOnlyNote>
      )}
    </>
  );
}

function ApplicantFields({ register, errors }: { register: UseFormRegister<Values>; errors: ProfileErrors }) {
  const today = new Date().toISOString().slice(0, 10);
  return (
    <fieldset>
      <legend>Applicant</legend>
      <div className="form-grid">
        <Field label="First name" autoComplete="given-name" error={errors.firstName} {...register("firstName")} />
        <Field label="Last name" autoComplete="family-name" error={errors.lastName} {...register("lastName")} />
        <Field
          label="Date of birth"
          type="date"
          max={today}
          hint="A date in the past."
          error={errors.dateOfBirth}
          {...register("dateOfBirth")}
        />
        <CountrySelect label="Nationality" error={errors.nationality} {...register("nationality")} />
        <Field label="E-mail" type="email" autoComplete="email" error={errors.email} {...register("email")} />
        <Field
          label="Phone"
          type="tel"
          autoComplete="tel"
          hint="International format, e.g. +4915112345678."
          error={errors.phone}
          {...register("phone")}
        />
      </div>
    </fieldset>
  );
}

function AddressFields({ register, errors }: { register: UseFormRegister<Values>; errors: ProfileErrors }) {
  return (
    <fieldset>
      <legend>Address</legend>
      <p className="muted" style={{ margin: 0 }}>
        Saved as a whole: changing any part sends the complete address.
      </p>
      <div className="form-grid">
        <Field
          label="Address line 1"
          autoComplete="address-line1"
          error={errors.address?.line1}
          {...register("address.line1")}
        />
        <Field
          label="Address line 2 (optional)"
          autoComplete="address-line2"
          error={errors.address?.line2}
          {...register("address.line2")}
        />
        <Field label="City" autoComplete="address-level2" error={errors.address?.city} {...register("address.city")} />
        <Field
          label="Postal code"
          autoComplete="postal-code"
          error={errors.address?.postalCode}
          {...register("address.postalCode")}
        />
        <CountrySelect label="Country" error={errors.address?.country} {...register("address.country")} />
      </div>
      {errors.address?.message && (
        <span className="field-error" role="alert">
          {errors.address.message}
        </span>
      )}
    </fieldset>
  );
}
