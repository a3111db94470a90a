import { z } from "zod";
import { presenterOf } from "@/lib/contract/present";
import { pageSchemaOf } from "@/lib/contract/pagination";
import { text } from "@/lib/contract/text";
import { idSchema } from "@/lib/ids/schema";

export const recipientParams = z.object({ id: idSchema("rcp") });

export const createRecipientInput = z
  .object({ name: text().trim().min(1, "must not be empty").max(200, "must be at most 200 characters") })
  .meta({ id: "CreateSandboxRecipientInput" });

export const recipientSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    isActive: z.boolean().meta({ description: "False once deleted." }),
    deletedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Recipient" });

export const presentRecipient = presenterOf(recipientSchema);

export const recipientPageSchema = pageSchemaOf(recipientSchema, "RecipientPage");
