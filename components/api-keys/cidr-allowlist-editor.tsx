"use client";

import { useFieldArray, type UseFormReturn } from "react-hook-form";
import { Field } from "@/components/ui/field";
import type { KeyFormValues } from "@/components/api-keys/key-form";

/**
 * One input per CIDR range. Each row is checked as it is typed, with the same parseCidr the API
 * uses (through the form's resolver), so a typo or a range with host bits set shows at once.
 */
export function CidrAllowlistEditor({ form }: { form: UseFormReturn<KeyFormValues> }) {
  const { fields, append, remove } = useFieldArray({ control: form.control, name: "cidrAllowlist" });
  const errors = form.formState.errors.cidrAllowlist;
  return (
    <fieldset>
      <legend>Allowed addresses</legend>
      <p className="muted" style={{ margin: 0, fontSize: "0.85rem" }}>
        IPv4 or IPv6 CIDR ranges, such as 203.0.113.0/24 or 2001:db8::/32. With no ranges, the key works from any
        address.
      </p>
      {fields.map((row, index) => (
        <div key={row.id} className="cidr-row">
          <Field
            label={`Range ${index + 1}`}
            className="mono"
            placeholder="203.0.113.0/24"
            autoComplete="off"
            spellCheck={false}
            error={errors?.[index]?.value}
            {...form.register(`cidrAllowlist.${index}.value`, {
              onChange: () => void form.trigger(`cidrAllowlist.${index}.value`),
            })}
          />
          <button type="button" aria-label={`Remove range ${index + 1}`} onClick={() => remove(index)}>
            Remove
          </button>
        </div>
      ))}
      {errors?.root?.message && (
        <span className="field-error" role="alert">
          {errors.root.message}
        </span>
      )}
      <div>
        <button type="button" onClick={() => append({ value: "" })}>
          Add range
        </button>
      </div>
    </fieldset>
  );
}
