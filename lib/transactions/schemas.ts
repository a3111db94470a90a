import { z } from "zod";
import { presenterOf } from "@/lib/contract/present";
import { pageQuerySchema, pageSchemaOf } from "@/lib/contract/pagination";
import { text } from "@/lib/contract/text";
import { idSchema } from "@/lib/ids/schema";

/** A positive decimal string ("12.50"); never a float, so no amount is ever rounded on the way in. */
export const amountSchema = text()
  .regex(/^\d{1,15}(\.\d{1,8})?$/, 'must be a decimal string such as "12.50" (up to 15 digits, 8 decimals)')
  .refine((value) => /[1-9]/.test(value), "must be greater than 0")
  // "0012.50" and "12.50" are the same amount; keep one spelling.
  .transform((value) => value.replace(/^0+(?=\d)/, ""))
  .meta({ description: "Decimal string, greater than 0, e.g. `12.50`.", examples: ["12.50"] });

export const currencySchema = text()
  .regex(/^[A-Z]{3,5}$/, "must be an upper-case currency code such as EUR or USDC")
  .meta({ description: "Upper-case currency code, 3 to 5 letters (`EUR`, `USDC`).", examples: ["EUR"] });

export const virtualAccountIdSchema = idSchema("va", "must be a virtual account id (va_...)");

export const walletAddressSchema = text().regex(
  /^[A-Za-z0-9._:-]{1,256}$/,
  "must be a wallet address (letters, digits and . _ : -, at most 256)",
);

export const transactionTypes = ["pay_in", "payout", "transfer", "fee"] as const;
export const transactionStatuses = ["pending", "completed", "failed"] as const;
export type TransactionType = (typeof transactionTypes)[number];
export type TransactionStatus = (typeof transactionStatuses)[number];

export const listTransactionsQuery = pageQuerySchema.extend({
  virtualAccountId: virtualAccountIdSchema
    .optional()
    .meta({ description: "Only transactions of this virtual account (another account's id gives an empty page)." }),
  walletAddress: walletAddressSchema
    .optional()
    .meta({ description: "Only transactions of this wallet address (exact match)." }),
});

export const transactionSchema = z
  .object({
    id: z.string(),
    virtualAccountId: z.string().nullable(),
    walletAddress: z.string().nullable(),
    amount: z.string().meta({ description: "Decimal string." }),
    currency: z.string(),
    type: z.enum(transactionTypes),
    status: z.enum(transactionStatuses),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Transaction" });

export const transactionPageSchema = pageSchemaOf(transactionSchema, "TransactionPage");

export const presentTransaction = presenterOf(transactionSchema);
