import { z } from "zod";
import type { DelegatedUser } from "@/lib/generated/prisma/client";
import { pageQuerySchema, pageSchemaOf } from "@/lib/contract/pagination";
import { text } from "@/lib/contract/text";
import { idSchema } from "@/lib/ids/schema";

const externalId = text({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .trim()
  .min(1, "must not be empty")
  .max(255, "must be at most 255 characters");

export const createDelegatedUserInput = z
  .object({
    externalId: externalId.meta({ description: "The platform's own identifier for the user; unique per account." }),
  })
  .meta({ id: "CreateDelegatedUserInput" });

export const delegatedUserQuery = pageQuerySchema.extend({
  externalId: externalId.optional().meta({ description: "Only the user with exactly this externalId." }),
});

export const delegatedUserParams = z.object({ id: idSchema("du") });

export const delegatedUserSchema = z
  .object({ id: z.string(), externalId: z.string(), createdAt: z.iso.datetime() })
  .meta({ id: "DelegatedUser" });

export const delegatedUserPageSchema = pageSchemaOf(delegatedUserSchema, "DelegatedUserPage");

export function presentDelegatedUser({
  id,
  externalId,
  createdAt,
}: Pick<DelegatedUser, "id" | "externalId" | "createdAt">) {
  return { id, externalId, createdAt };
}
