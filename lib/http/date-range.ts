import { z } from "zod";

/** A date (`2026-11-01`) or an ISO datetime; the same text as a bound means the start or the end of that UTC day. */
const dateOrDatetime = z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
  error: "must be a date (2026-11-01) or an ISO-8601 date-time",
});

export const dateRangeQuery = {
  startDate: dateOrDatetime.optional().meta({ description: "Inclusive lower bound on creation time." }),
  endDate: dateOrDatetime.optional().meta({ description: "Inclusive upper bound; a date means the end of that UTC day." }),
};

/** Prisma filter for an inclusive range over `field`; 422-worthy problems are reported by refineDateRange. */
export function dateRangeFilter(startDate: string | undefined, endDate: string | undefined) {
  const range: { gte?: Date; lte?: Date } = {};
  if (startDate) range.gte = new Date(startDate.length === 10 ? `${startDate}T00:00:00.000Z` : startDate);
  if (endDate) range.lte = new Date(endDate.length === 10 ? `${endDate}T23:59:59.999Z` : endDate);
  return Object.keys(range).length ? range : undefined;
}

/** For a query schema's superRefine: startDate after endDate is a validation error on endDate. */
export function refineDateRange(value: { startDate?: string; endDate?: string }, context: z.RefinementCtx) {
  const range = dateRangeFilter(value.startDate, value.endDate);
  if (range?.gte && range.lte && range.gte > range.lte) {
    context.addIssue({ code: "custom", path: ["endDate"], message: "must not be before startDate" });
  }
}
