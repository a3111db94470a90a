import { z } from "zod";
import { presenterOf } from "@/lib/contract/present";
import { pageQuerySchema, pageSchemaOf } from "@/lib/contract/pagination";
import { text } from "@/lib/contract/text";
import { amountSchema, currencySchema, walletAddressSchema } from "@/lib/transactions/schemas";
import { idPattern } from "@/lib/ids/schema";

/** True for a segment shaped like a virtual account id; anything else in that position is a key. */
export const looksLikeVirtualAccountId = (segment: string) => idPattern("va").test(segment);

/**
 * The platform's own reference. A key may not look like an id (`va_...`), so a path segment always
 * resolves one way, with one index lookup.
 */
export const virtualAccountKeySchema = text()
  .regex(/^[A-Za-z0-9._:-]{1,128}$/, "must be 1-128 letters, digits, dots, underscores, colons or hyphens")
  .refine((key) => !looksLikeVirtualAccountId(key), "must not look like a virtual account id (va_...)")
  .meta({
    description:
      "The platform's own reference, unique in the account: 1-128 of `A-Z a-z 0-9 . _ : -`, not shaped like an id (`va_...`).",
    examples: ["customer-42"],
  });

export const virtualAccountParams = z.object({
  idOrKey: text()
    .regex(/^[A-Za-z0-9._:-]{1,128}$/)
    .meta({ description: "The virtual account's `id` (`va_...`) or its `key`." }),
});

export const createVirtualAccountInput = z
  .object({
    currency: currencySchema,
    key: virtualAccountKeySchema
      .optional()
      .meta({ description: "Defaults to a generated one such as `VA-7K3QX9P2M4`." }),
  })
  .meta({ id: "CreateSandboxVirtualAccountInput" });

export const payInInput = z
  .object({
    amount: amountSchema,
    currency: currencySchema.meta({ description: "Must be the virtual account's currency." }),
    walletAddress: walletAddressSchema.optional(),
  })
  .meta({ id: "CreateSandboxPayInInput" });

export const virtualAccountSchema = z
  .object({
    id: z.string(),
    key: z.string(),
    currency: z.string(),
    isActive: z.boolean().meta({ description: "False once deactivated: it then refuses pay-ins." }),
    createdAt: z.iso.datetime(),
    deactivatedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "VirtualAccount" });

export const presentVirtualAccount = presenterOf(virtualAccountSchema);

export const listVirtualAccountsQuery = pageQuerySchema.extend({
  isActive: z
    .enum(["true", "false"], { error: 'must be "true" or "false"' })
    .transform((value) => value === "true")
    .optional()
    .meta({ description: "`true`: only active accounts; `false`: only deactivated ones. Absent: both." }),
});

export const virtualAccountPageSchema = pageSchemaOf(virtualAccountSchema, "VirtualAccountPage");
