import { z } from "zod";
import { text } from "@/lib/contract/text";

const dateHint = "must be a date (2026-11-01) or an ISO-8601 date-time (2026-11-01T13:00:00Z)";

/**
 * A time bound for list filters: a calendar date or a date-time. A date stands for the whole UTC
 * day, so as a start it means 00:00:00.000 and as an end 23:59:59.999; both bounds are inclusive.
 */
export const dateBound = (edge: "start" | "end") =>
  text()
    .transform((value, context) => {
      if (z.iso.date().safeParse(value).success) {
        return new Date(`${value}T${edge === "start" ? "00:00:00.000" : "23:59:59.999"}Z`);
      }
      if (z.iso.datetime({ offset: true }).safeParse(value).success) return new Date(value);
      context.addIssue({ code: "custom", message: dateHint });
      return z.NEVER;
    })
    .meta({
      description:
        edge === "start"
          ? "Inclusive lower bound on creation time: a date (from 00:00 UTC that day) or an ISO-8601 date-time."
          : "Inclusive upper bound on creation time: a date (to the end of that UTC day) or an ISO-8601 date-time.",
    });

/** `startDate` and `endDate` query fields, for `pageQuerySchema.extend({ ...dateRangeQuery })`. */
export const dateRangeQuery = { startDate: dateBound("start").optional(), endDate: dateBound("end").optional() };

/** Refinement for a schema with dateRangeQuery: the range must not be reversed. */
export const rangeInOrder: [
  (query: { startDate?: Date; endDate?: Date }) => boolean,
  { path: string[]; message: string },
] = [
  (query) => !query.startDate || !query.endDate || query.startDate <= query.endDate,
  { path: ["startDate"], message: "must not be after endDate" },
];

/** Prisma filter for the inclusive range, or undefined when neither bound is given. */
export function withinRange({ startDate, endDate }: { startDate?: Date; endDate?: Date }) {
  if (!startDate && !endDate) return undefined;
  return { ...(startDate && { gte: startDate }), ...(endDate && { lte: endDate }) };
}
