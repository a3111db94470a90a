import { suspended } from "@/components/ui/suspended";
import { TransactionsView } from "./transactions-view";

export const metadata = { title: "Transactions" };

export default suspended(TransactionsView);
