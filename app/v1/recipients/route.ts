import { listRecipientsEndpoint } from "@/lib/recipients/endpoints";
import { listRecipients } from "@/lib/recipients/recipients";
import { methods, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET: a page of the account's saved recipients (deleted ones are gone).
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(listRecipientsEndpoint, async ({ query }) => listRecipients(query)),
});
