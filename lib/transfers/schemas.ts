import { z } from "zod";
import { presenterOf } from "@/lib/contract/present";
import { amountSchema, currencySchema } from "@/lib/transactions/schemas";
import { idSchema } from "@/lib/ids/schema";

/** For a route with a transfer id in its path (`{id}`): junk answers 404 like an unknown id. */
export const transferParams = z.object({ id: idSchema("tr") });

export const transferStatuses = ["pending", "completed", "failed"] as const;

export const createTransferInput = z
  .object({
    recipientId: idSchema("rcp", "must be a recipient id (rcp_...)"),
    amount: amountSchema,
    currency: currencySchema,
  })
  .meta({ id: "CreateSandboxTransferInput" });

export const transferSchema = z
  .object({
    id: z.string(),
    recipientId: z.string(),
    amount: z.string().meta({ description: "Decimal string." }),
    currency: z.string(),
    status: z.enum(transferStatuses),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Transfer" });

export const presentTransfer = presenterOf(transferSchema);
