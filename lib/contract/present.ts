import type { z } from "zod";
import type { Wire } from "@/lib/contract/endpoint";

/** A row that holds every field of an object schema, each as a handler may return it (Dates for date-time strings). */
type RowFor<S extends z.ZodObject> = { [K in keyof z.input<S>]: Wire<z.input<S>[K]> };

/**
 * The presenter of a resource whose answer is its row's own columns: the fields the response schema
 * names, copied from the row (nothing else: a column the schema does not name, such as the tenant's
 * account or a secret's hash, never reaches a response). The row's type must hold each field in a type
 * the schema accepts, so a field added to the schema but missing from the model is a compile error.
 */
export function presenterOf<S extends z.ZodObject>(schema: S) {
  const keys = Object.keys(schema.shape);
  return <Row extends RowFor<S>>(row: Row): Pick<Row, Extract<keyof RowFor<S>, keyof Row>> => {
    const presented: Partial<Record<string, unknown>> = {};
    for (const key of keys) presented[key] = row[key as keyof Row];
    return presented as Pick<Row, Extract<keyof RowFor<S>, keyof Row>>;
  };
}
